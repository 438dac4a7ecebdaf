// Virtual numbers, the blacklist and voice prompts: the codes of their services.
import { vn } from '../helpers.mts';
import { long, UNKNOWN, settings, type Case, type Ctx } from './case.mts';

export const NUMBER_CASES: Case[] = [
	// Numbers
	{
		service: 'get_virtualnum',
		code: 4030,
		why: 'bad filter_name',
		params: () => ({ filter_name: 'password', filter_value: 'x' }),
	},
	{
		service: 'get_virtualnum',
		code: 4031,
		why: 'unknown number',
		params: () => ({ virtualnum: UNKNOWN }),
	},
	{
		service: 'get_virtualnum',
		code: 4031,
		why: 'filter matches nothing',
		params: () => ({ filter_name: 'description', filter_value: 'nothing like this' }),
	},
	{
		service: 'get_available_virtualnum',
		code: 4050,
		why: 'no number contains the digits',
		params: () => ({ virtualnum: '99999999' }),
	},
	{
		service: 'get_available_virtualnum',
		code: 4050,
		why: 'empty pool',
		setup: async (c) => {
			c.sb.control.reset({ poolNumbers: 0 });
			await vn(c.sb, 'create_virtualnum', {
				description: 'Last one',
				call_destination_phone: '0501234567',
			});
		},
	},
	{
		service: 'get_available_virtualnum',
		code: 4051,
		why: 'no number with the prefix',
		params: () => ({ prefix: '079' }),
	},
	{
		service: 'create_virtualnum',
		code: 4000,
		why: 'description missing',
		params: () => ({ call_destination_phone: '0501234567' }),
	},
	{
		service: 'create_virtualnum',
		code: 4000,
		why: 'description too long',
		params: () => ({ description: long(200), call_destination_phone: '0501234567' }),
	},
	{
		service: 'create_virtualnum',
		code: 4001,
		why: 'destination missing',
		params: () => ({ description: 'Line' }),
	},
	{
		service: 'create_virtualnum',
		code: 4001,
		why: 'destination invalid',
		params: () => ({ description: 'Line', call_destination_phone: 'office' }),
	},
	...[1, 3, 5, 7, 9].map((field, i) => ({
		service: 'create_virtualnum',
		code: 4002 + i,
		why: `private_field${field} too long`,
		params: () => ({
			description: 'Line',
			call_destination_phone: '0501234567',
			[`private_field${field}`]: long(255),
		}),
	})),
	{
		service: 'create_virtualnum',
		code: 4006,
		why: 'private_field10 too long',
		params: () => ({
			description: 'Line',
			call_destination_phone: '0501234567',
			private_field10: long(255),
		}),
	},
	{
		service: 'create_virtualnum',
		code: 4007,
		why: 'callback_url too long',
		params: () => ({
			description: 'Line',
			call_destination_phone: '0501234567',
			callback_url: `http://x/${long(510)}`,
		}),
	},
	{
		service: 'create_virtualnum',
		code: 4008,
		why: 'number not available',
		params: () => ({
			description: 'Line',
			call_destination_phone: '0501234567',
			virtualnum: UNKNOWN,
		}),
	},
	{
		service: 'create_virtualnum',
		code: 4009,
		why: 'no number with the prefix',
		params: () => ({ description: 'Line', call_destination_phone: '0501234567', prefix: '079' }),
	},
	...(
		[
			['callback_url_option', 4, 40010],
			['dial_option', 5, 40011],
			['record_option', 0, 40012],
			['dial_timeout_in_sec', 181, 40013],
			['expose', 4, 40014],
			['disallow_callback', 3, 40015],
		] as const
	).map(([name, value, code]) => ({
		service: 'create_virtualnum',
		code,
		why: `${name}=${value}`,
		params: () => ({ description: 'Line', call_destination_phone: '0501234567', [name]: value }),
	})),
	{
		service: 'update_virtualnum',
		code: 4010,
		why: 'description missing',
		params: (c) => ({ virtualnum: c.active, call_destination_phone: '0501234567' }),
	},
	{
		service: 'update_virtualnum',
		code: 4011,
		why: 'virtualnum too short',
		params: () => ({ virtualnum: '0722', description: 'x', call_destination_phone: '0501234567' }),
	},
	{
		service: 'update_virtualnum',
		code: 4012,
		why: 'destination missing',
		params: (c) => ({ virtualnum: c.active, description: 'Line', email: 'a@b.co' }),
	},
	...[1, 3, 5, 7, 9].map((field, i) => ({
		service: 'update_virtualnum',
		code: 4013 + i,
		why: `private_field${field + 1} too long`,
		params: (c: Ctx) => ({ ...settings(c), [`private_field${field + 1}`]: long(255) }),
	})),
	{
		service: 'update_virtualnum',
		code: 4018,
		why: 'not a number',
		params: () => ({
			virtualnum: '07220abc00',
			description: 'x',
			call_destination_phone: '0501234567',
		}),
	},
	{
		service: 'update_virtualnum',
		code: 4019,
		why: 'not in the account',
		params: () => ({
			virtualnum: '0779999003',
			description: 'x',
			call_destination_phone: '0501234567',
		}),
	},
	{
		service: 'update_virtualnum',
		code: 4020,
		why: 'callback_url too long',
		params: (c) => ({ ...settings(c), callback_url: `http://x/${long(510)}` }),
	},
	{
		service: 'update_virtualnum',
		code: 4021,
		why: 'update failed',
		internal: true,
		params: (c) => settings(c),
	},
	...(
		[
			['callback_url_option', 0, 4022],
			['dial_option', 'parallel', 4023],
			['record_option', 4, 4024],
			['dial_timeout_in_sec', 0, 4025],
			['expose', 0, 4026],
			['disallow_callback', -1, 4027],
		] as const
	).map(([name, value, code]) => ({
		service: 'update_virtualnum',
		code,
		why: `${name}=${value}`,
		params: (c: Ctx) => ({ ...settings(c), [name]: value }),
	})),
	{ service: 'release_virtualnum', code: 4040, why: 'virtualnum missing' },
	{
		service: 'release_virtualnum',
		code: 4041,
		why: 'not in the account',
		params: () => ({ virtualnum: UNKNOWN }),
	},
	{
		service: 'release_virtualnum',
		code: 4042,
		why: 'release failed',
		internal: true,
		params: (c) => ({ virtualnum: c.active }),
	},
	{
		service: 'release_virtualnum',
		code: 4043,
		why: 'invalid number',
		params: () => ({ virtualnum: 'not-a-number' }),
	},
	{ service: 'restore_virtualnum', code: 4040, why: 'virtualnum missing' },
	{
		service: 'restore_virtualnum',
		code: 4041,
		why: 'invalid number',
		params: () => ({ virtualnum: 'abc' }),
	},
	{
		service: 'restore_virtualnum',
		code: 4042,
		why: 'never released here',
		params: () => ({ virtualnum: UNKNOWN }),
	},
	{
		service: 'restore_virtualnum',
		code: 4043,
		why: 'already active',
		params: (c) => ({ virtualnum: c.active }),
	},
	{
		service: 'restore_virtualnum',
		code: 4044,
		why: 'allocated again elsewhere',
		params: () => ({ virtualnum: '0779999002' }),
	},
	// Blacklist
	{
		service: 'get_blacklist',
		code: 2001,
		why: 'no match',
		params: () => ({ caller_number: '0509876543' }),
	},
	{
		service: 'add_number_to_blacklist',
		code: 2021,
		why: 'no digits',
		params: () => ({ caller_number: 'anonymous' }),
	},
	{
		service: 'add_number_to_blacklist',
		code: 2022,
		why: 'already blocked',
		params: () => ({ caller_number: '+972-50-111-1111' }),
	},
	{
		service: 'add_number_to_blacklist',
		code: 2023,
		why: 'number of another account',
		params: () => ({ caller_number: '0509876543', virtualnum: '0779999003' }),
	},
	{
		service: 'remove_number_from_blacklist',
		code: 2011,
		why: 'not numeric',
		params: () => ({ caller_number: 'abc' }),
	},
	{
		service: 'remove_number_from_blacklist',
		code: 2012,
		why: 'not listed',
		params: () => ({ caller_number: '0509876543' }),
	},
	{
		service: 'remove_number_from_blacklist',
		code: 2012,
		why: 'bound entry without virtualnum',
		params: () => ({ caller_number: '0502222222' }),
	},
	{
		service: 'remove_number_from_blacklist',
		code: 2013,
		why: 'removal failed',
		internal: true,
		params: () => ({ caller_number: '0501111111' }),
	},
	// Prompts
	{
		service: 'get_prompts_list',
		code: 9041,
		why: 'no prompts',
		setup: async (c) => {
			for (const p of c.sb.control.prompts())
				await vn(c.sb, 'delete_prompt', { prompt_name: p.name });
		},
	},
	{ service: 'download_prompt', code: 9011, why: 'prompt_name missing' },
	{
		service: 'download_prompt',
		code: 9013,
		why: 'no valid characters',
		params: () => ({ prompt_name: '!!!' }),
	},
	{
		service: 'download_prompt',
		code: 9012,
		why: 'unknown prompt',
		params: () => ({ prompt_name: 'nope' }),
	},
	{ service: 'upload_prompt', code: 9021, why: 'no file', upload: 'none' },
	{
		service: 'upload_prompt',
		code: 9021,
		why: 'empty file',
		upload: { filename: 'empty.wav', bytes: Buffer.alloc(0) },
	},
	{
		service: 'upload_prompt',
		code: 9022,
		why: 'name exists',
		upload: { filename: 'Welcome.WAV', bytes: Buffer.from('RIFF\0\0\0\0WAVEfmt ') },
	},
	{
		service: 'upload_prompt',
		code: 9022,
		why: 'file_name exists',
		params: () => ({ file_name: 'hold_music.wav' }),
		upload: { filename: 'fresh.wav', bytes: Buffer.from('RIFF\0\0\0\0WAVEfmt ') },
	},
	{
		service: 'upload_prompt',
		code: 9023,
		why: 'a PDF',
		upload: { filename: 'menu.pdf', bytes: Buffer.from('%PDF-1.4 ...') },
	},
	{
		service: 'upload_prompt',
		code: 9023,
		why: 'a PNG named .wav',
		upload: { filename: 'menu.wav', bytes: Buffer.from('\x89PNG\r\n\x1a\n', 'latin1') },
	},
	{
		service: 'upload_prompt',
		code: 9025,
		why: 'no usable name',
		upload: { filename: '.wav', bytes: Buffer.from('RIFF\0\0\0\0WAVEfmt ') },
	},
	{ service: 'delete_prompt', code: 9031, why: 'prompt_name missing' },
	{
		service: 'delete_prompt',
		code: 9034,
		why: 'no valid characters',
		params: () => ({ prompt_name: '***' }),
	},
	{
		service: 'delete_prompt',
		code: 9032,
		why: 'unknown prompt',
		params: () => ({ prompt_name: 'nope' }),
	},
	{
		service: 'delete_prompt',
		code: 9033,
		why: 'deletion failed',
		internal: true,
		params: () => ({ prompt_name: 'welcome' }),
	},
	{ service: 'recording_studio', code: 9026, why: 'destination missing' },
	{
		service: 'recording_studio',
		code: 9026,
		why: 'destination invalid',
		params: () => ({ destination: 'studio' }),
	},
];
