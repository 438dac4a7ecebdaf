// Every (service, code) pair of the spec's service-code table is produced by at least one case here;
// the last test fails when the spec gains a code that no case produces. Internal failures that no
// input can provoke ("saving failed", ...) use the serviceError fault.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { specGeneralCodes, specServiceCodes, specUnauthorizedTexts } from '../../harness/spec.mts';
import { start, vn, vnRaw } from './helpers.mts';
import type { Sandbox } from './helpers.mts';

let sb: Sandbox;
const produced = new Set<string>();

interface Ctx {
	active: string;
	second: string;
	suspended: string;
	callUuid: string;
	noRecordingUuid: string;
}

interface Case {
	service: string;
	code: number;
	why: string;
	params?: (c: Ctx) => Record<string, string | number>;
	setup?: (c: Ctx) => Promise<void> | void;
	internal?: boolean; // produced with the serviceError fault
	upload?: { filename: string; bytes: Buffer } | 'none';
}

const long = (n: number) => 'x'.repeat(n);
const UNKNOWN = '0799999999';
const settings = (c: Ctx) => ({
	virtualnum: c.active,
	description: 'Line',
	call_destination_phone: '0501234567',
});

const CASES: Case[] = [
	// CDR
	{ service: 'cdr_query', code: 1011, why: 'sql missing' },
	{
		service: 'cdr_query',
		code: 1012,
		why: 'DELETE rejected',
		params: () => ({ sql: 'DELETE FROM webserviceview' }),
	},
	{
		service: 'cdr_query',
		code: 1013,
		why: 'no rows',
		params: () => ({ sql: 'SELECT id FROM webserviceview WHERE id < 0' }),
	},
	{
		service: 'cdr_query',
		code: 1013,
		why: 'engine rejects',
		params: () => ({ sql: 'SELECT no_such_column FROM webserviceview' }),
	},
	{ service: 'cdr_subunique_query', code: 1001, why: 'start_time missing' },
	{
		service: 'cdr_subunique_query',
		code: 1001,
		why: 'start_time invalid',
		params: () => ({ start_time: '2024-02-30 00:00:00', end_time: '2024-03-01 00:00:00' }),
	},
	{
		service: 'cdr_subunique_query',
		code: 1002,
		why: 'end_time missing',
		params: () => ({ start_time: '2024-10-01 00:00:00' }),
	},
	{
		service: 'cdr_subunique_query',
		code: 1003,
		why: 'no calls',
		params: () => ({ start_time: '2000-01-01 00:00:00', end_time: '2000-01-02 00:00:00' }),
	},
	{ service: 'get_record_by_call_uuid', code: 3001, why: 'call_uuid missing' },
	{
		service: 'get_record_by_call_uuid',
		code: 3002,
		why: 'no recording',
		params: (c) => ({ call_uuid: c.noRecordingUuid }),
	},
	{
		service: 'get_record_by_call_uuid',
		code: 3002,
		why: 'unknown call',
		params: () => ({ call_uuid: '1700000000.99999999' }),
	},
	{ service: 'get_cdr_metadata_by_call_uuid', code: 1014, why: 'call_uuid missing' },
	{
		service: 'get_cdr_metadata_by_call_uuid',
		code: 1015,
		why: 'unknown call',
		params: () => ({ call_uuid: '1700000000.99999999' }),
	},
	{ service: 'get_ads_offline_conversion', code: 1015, why: 'call_uuid missing' },
	{
		service: 'get_ads_offline_conversion',
		code: 1116,
		why: 'not numeric',
		params: () => ({ call_uuid: 'abc' }),
	},
	{
		service: 'get_ads_offline_conversion',
		code: 1115,
		why: 'unknown call',
		params: () => ({ call_uuid: '1700000000.99999999' }),
	},
	{ service: 'set_ads_offline_conversion', code: 1015, why: 'call_uuid missing' },
	{
		service: 'set_ads_offline_conversion',
		code: 1016,
		why: 'value missing',
		params: (c) => ({ call_uuid: c.callUuid }),
	},
	{
		service: 'set_ads_offline_conversion',
		code: 1017,
		why: 'value not numeric',
		params: (c) => ({ call_uuid: c.callUuid, conversion_value: 'ten' }),
	},
	{
		service: 'set_ads_offline_conversion',
		code: 1125,
		why: 'unknown call',
		params: () => ({ call_uuid: '1700000000.99999999', conversion_value: 5 }),
	},
	{
		service: 'set_ads_offline_conversion',
		code: 1126,
		why: 'saving failed',
		internal: true,
		params: (c) => ({ call_uuid: c.callUuid, conversion_value: 5 }),
	},
	{
		service: 'create_virtualnum_cdr',
		code: 2022,
		why: 'bad start',
		params: (c) => ({ cdr_ddi: c.active, cdr_start_call: '01/10/2024 10:00' }),
	},
	{
		service: 'create_virtualnum_cdr',
		code: 2024,
		why: 'duration out of range',
		params: (c) => ({ cdr_ddi: c.active, cdr_totac_sec: 3600 }),
	},
	{
		service: 'create_virtualnum_cdr',
		code: 2024,
		why: 'duration not numeric',
		params: (c) => ({ cdr_ddi: c.active, cdr_totac_sec: 'long' }),
	},
	{
		service: 'create_virtualnum_cdr',
		code: 2027,
		why: 'bad ani',
		params: (c) => ({ cdr_ddi: c.active, cdr_ani: '12345' }),
	},
	{ service: 'create_virtualnum_cdr', code: 2028, why: 'ddi missing' },
	{
		service: 'create_virtualnum_cdr',
		code: 2028,
		why: 'ddi unknown',
		params: () => ({ cdr_ddi: UNKNOWN }),
	},
	{
		service: 'create_virtualnum_cdr',
		code: 2028,
		why: 'bad destination',
		params: (c) => ({ cdr_ddi: c.active, cdr_destination: '+1 555 0100' }),
	},
	{
		service: 'create_virtualnum_cdr',
		code: 2029,
		why: 'bad JSON',
		params: (c) => ({ cdr_ddi: c.active, cdr_metadata: '{bad json' }),
	},
	{
		service: 'create_virtualnum_cdr',
		code: 2031,
		why: 'saving failed',
		internal: true,
		params: (c) => ({ cdr_ddi: c.active }),
	},
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
		setup: async () => {
			sb.control.reset({ poolNumbers: 0 });
			await vn(sb, 'create_virtualnum', {
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
	// Calls
	{
		service: 'create_virtualnum_call',
		code: 3011,
		why: 'virtualnum missing',
		params: () => ({ destination: '0501234567' }),
	},
	{
		service: 'create_virtualnum_call',
		code: 3012,
		why: 'calls disabled for the account',
		setup: () => void sb.control.configure({ callsAllowed: false }),
		params: (c) => ({ virtualnum: c.active, destination: '0501234567' }),
	},
	{
		service: 'create_virtualnum_call',
		code: 3013,
		why: 'destination blacklisted',
		params: (c) => ({ virtualnum: c.active, destination: '050-111-1111' }),
	},
	{
		service: 'create_virtualnum_call',
		code: 3014,
		why: 'number suspended',
		params: (c) => ({ virtualnum: c.suspended, destination: '0501234567' }),
	},
	{
		service: 'create_virtualnum_call',
		code: 3015,
		why: 'destination missing',
		params: (c) => ({ virtualnum: c.active }),
	},
	{
		service: 'create_virtualnum_call',
		code: 3015,
		why: 'placing failed',
		internal: true,
		params: (c) => ({ virtualnum: c.active, destination: '0501234567' }),
	},
	{
		service: 'create_virtualnum_call',
		code: 3016,
		why: 'unknown number',
		params: () => ({ virtualnum: UNKNOWN, destination: '0501234567' }),
	},
	{
		service: 'create_virtualnum_call_v2',
		code: 3031,
		why: 'virtualnum missing',
		params: () => ({ destination1: '0501234567', destination2: '0507654321' }),
	},
	{
		service: 'create_virtualnum_call_v2',
		code: 3032,
		why: 'destination2 missing',
		params: (c) => ({ virtualnum1: c.active, destination1: '0501234567' }),
	},
	{
		service: 'create_virtualnum_call_v2',
		code: 3033,
		why: 'destination1 blacklisted',
		params: (c) => ({
			virtualnum1: c.active,
			destination1: '0501111111',
			destination2: '0507654321',
		}),
	},
	{
		service: 'create_virtualnum_call_v2',
		code: 3038,
		why: 'destination2 blacklisted',
		params: (c) => ({
			virtualnum1: c.active,
			destination1: '0507654321',
			destination2: '0777777777',
		}),
	},
	{
		service: 'create_virtualnum_call_v2',
		code: 3034,
		why: 'virtualnum1 suspended',
		params: (c) => ({
			virtualnum1: c.suspended,
			virtualnum2: c.active,
			destination1: '0501234567',
			destination2: '0507654321',
		}),
	},
	{
		service: 'create_virtualnum_call_v2',
		code: 3037,
		why: 'virtualnum2 suspended',
		params: (c) => ({
			virtualnum1: c.active,
			virtualnum2: c.suspended,
			destination1: '0501234567',
			destination2: '0507654321',
		}),
	},
	{
		service: 'create_virtualnum_call_v2',
		code: 3035,
		why: 'calls disabled for the account',
		setup: () => void sb.control.configure({ callsAllowed: false }),
		params: (c) => ({
			virtualnum1: c.active,
			destination1: '0501234567',
			destination2: '0507654321',
		}),
	},
	{
		service: 'create_virtualnum_call_v2',
		code: 3036,
		why: 'virtualnum2 unknown',
		params: (c) => ({
			virtualnum1: c.active,
			virtualnum2: UNKNOWN,
			destination1: '0501234567',
			destination2: '0507654321',
		}),
	},
	{
		service: 'create_virtualnum_call_v2',
		code: 3039,
		why: 'virtualnum2 closed all week',
		setup: (c) =>
			void sb.control.seed({
				virtualnum: { virtualnum: c.second, working_hours: '0'.repeat(168) },
			}),
		params: (c) => ({
			virtualnum1: c.active,
			virtualnum2: c.second,
			destination1: '0501234567',
			destination2: '0507654321',
		}),
	},
	{
		service: 'click2call_link',
		code: 3017,
		why: 'virtualnum missing',
		params: () => ({ destination: '0501234567' }),
	},
	{
		service: 'click2call_link',
		code: 3018,
		why: 'destination invalid',
		params: (c) => ({ virtualnum: c.active, destination: 'me' }),
	},
	{
		service: 'click2call_link',
		code: 3019,
		why: 'unknown number',
		params: () => ({ virtualnum: UNKNOWN, destination: '0501234567' }),
	},
	{
		service: 'click2call_link',
		code: 3020,
		why: 'suspended',
		params: (c) => ({ virtualnum: c.suspended, destination: '0501234567' }),
	},
	{
		service: 'click2call_link',
		code: 3021,
		why: 'blacklisted',
		params: (c) => ({ virtualnum: c.active, destination: '0501111111' }),
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
		setup: async () => {
			for (const p of sb.control.prompts()) await vn(sb, 'delete_prompt', { prompt_name: p.name });
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
	// Users
	{
		service: 'set_user',
		code: 7001,
		why: 'email missing',
		params: () => ({ password: 'Passw0rd!' }),
	},
	{
		service: 'set_user',
		code: 7001,
		why: 'email too long',
		params: () => ({ email: `${long(95)}@x.com`, password: 'Passw0rd!' }),
	},
	{
		service: 'set_user',
		code: 7002,
		why: 'password short',
		params: () => ({ email: 'new@example.com', password: 'Pa55' }),
	},
	{
		service: 'set_user',
		code: 7002,
		why: 'password without digits',
		params: () => ({ email: 'new@example.com', password: 'Password' }),
	},
	{
		service: 'set_user',
		code: 7003,
		why: 'email taken',
		params: () => ({ email: 'ADMIN@example.com', password: 'Passw0rd!' }),
	},
	{
		service: 'set_user',
		code: 7004,
		why: 'profile failed',
		internal: true,
		params: () => ({ email: 'new@example.com', password: 'Passw0rd!' }),
	},
	{
		service: 'set_user',
		code: 7005,
		why: 'permissions failed',
		internal: true,
		params: () => ({ email: 'new@example.com', password: 'Passw0rd!' }),
	},
	{ service: 'update_user', code: 7011, why: 'user_id missing' },
	{ service: 'update_user', code: 7012, why: 'unknown user', params: () => ({ user_id: 999 }) },
	{
		service: 'update_user',
		code: 7012,
		why: 'bad user_status',
		params: () => ({ user_id: 2, user_status: 5 }),
	},
	{
		service: 'update_user',
		code: 7012,
		why: 'short phone',
		params: () => ({ user_id: 2, user_phone: '123' }),
	},
	{
		service: 'update_user',
		code: 7013,
		why: 'weak password',
		params: () => ({ user_id: 2, password: 'short' }),
	},
	{ service: 'delete_user', code: 7021, why: 'user_id missing' },
	{ service: 'delete_user', code: 7022, why: 'unknown user', params: () => ({ user_id: 999 }) },
	...[7023, 7024, 7025, 7026].map((code) => ({
		service: 'delete_user',
		code,
		why: 'internal failure',
		internal: true,
		params: () => ({ user_id: 2 }),
	})),
	{ service: 'get_user_by_id', code: 7031, why: 'user_id missing' },
	{ service: 'get_user_by_id', code: 7032, why: 'unknown user', params: () => ({ user_id: 999 }) },
	{
		service: 'get_users',
		code: 7041,
		why: 'no users',
		setup: () => sb.control.reset({ users: 0 }),
	},
	{
		service: 'set_ddi_to_user',
		code: 8001,
		why: 'user_id missing',
		params: (c) => ({ virtualnum: c.active }),
	},
	{
		service: 'set_ddi_to_user',
		code: 8002,
		why: 'virtualnum missing',
		params: () => ({ user_id: 2 }),
	},
	{
		service: 'set_ddi_to_user',
		code: 8003,
		why: 'unknown user',
		params: (c) => ({ user_id: 999, virtualnum: c.active }),
	},
	{
		service: 'set_ddi_to_user',
		code: 8004,
		why: 'unknown number',
		params: () => ({ user_id: 2, virtualnum: UNKNOWN }),
	},
	{
		service: 'set_ddi_to_user',
		code: 8005,
		why: 'assignment failed',
		internal: true,
		params: (c) => ({ user_id: 1, virtualnum: c.active }),
	},
	{
		service: 'set_ddi_to_user',
		code: 8006,
		why: 'already assigned',
		params: (c) => ({ user_id: 2, virtualnum: c.active }),
	},
	{ service: 'get_ddi_by_user_id', code: 8011, why: 'user_id missing' },
	{
		service: 'get_ddi_by_user_id',
		code: 8012,
		why: 'nothing assigned',
		params: () => ({ user_id: 1 }),
	},
	{
		service: 'delete_ddi_from_user_id',
		code: 8021,
		why: 'user_id missing',
		params: (c) => ({ virtualnum: c.active }),
	},
	{
		service: 'delete_ddi_from_user_id',
		code: 8022,
		why: 'virtualnum missing',
		params: () => ({ user_id: 2 }),
	},
	{
		service: 'delete_ddi_from_user_id',
		code: 8023,
		why: 'unknown user',
		params: (c) => ({ user_id: 999, virtualnum: c.active }),
	},
	{
		service: 'delete_ddi_from_user_id',
		code: 8024,
		why: 'unknown number',
		params: () => ({ user_id: 2, virtualnum: UNKNOWN }),
	},
	{
		service: 'delete_ddi_from_user_id',
		code: 8025,
		why: 'not assigned',
		params: (c) => ({ user_id: 1, virtualnum: c.active }),
	},
	{
		service: 'delete_ddi_from_user_id',
		code: 8026,
		why: 'removal failed',
		internal: true,
		params: (c) => ({ user_id: 2, virtualnum: c.active }),
	},
	{
		service: 'get_users_access_log',
		code: 6001,
		why: 'unknown user',
		params: () => ({ user_id: 999 }),
	},
	{
		service: 'get_users_access_log',
		code: 6001,
		why: 'empty range',
		params: () => ({ start_time: '2001-01-01 00:00:00', end_time: '2001-01-02 00:00:00' }),
	},
];

// The tag operations have no codes in the spec; these are the sandbox's (sandbox/README.md).
const TAG_CASES: Case[] = [
	{ service: 'view_tag_by_id', code: 5001, why: 'tag_id missing' },
	{
		service: 'view_tag_by_id',
		code: 5001,
		why: 'tag_id not numeric',
		params: () => ({ tag_id: 'vip' }),
	},
	{ service: 'view_tag_by_id', code: 5003, why: 'unknown tag', params: () => ({ tag_id: 999 }) },
	{
		service: 'view_tags',
		code: 5009,
		why: 'no tag name contains the text',
		params: () => ({ tag_name: 'zzz' }),
	},
	{
		service: 'view_tag_by_name',
		code: 5009,
		why: 'no tag name contains the text',
		params: () => ({ tag_name: 'zzz' }),
	},
	{ service: 'view_tags_by_virtualnum', code: 5005, why: 'virtualnum missing' },
	{
		service: 'view_tags_by_virtualnum',
		code: 5006,
		why: 'not in the account',
		params: () => ({ virtualnum: UNKNOWN }),
	},
	{
		service: 'view_tags_by_virtualnum',
		code: 5009,
		why: 'number without tags',
		params: (c) => ({ virtualnum: c.suspended }),
	},
	{ service: 'create_tag', code: 5002, why: 'tag_name missing' },
	{
		service: 'create_tag',
		code: 5072,
		why: 'name exists (the code public integrations report)',
		params: () => ({ tag_name: 'vip' }),
	},
	{ service: 'update_tag', code: 5001, why: 'tag_id missing', params: () => ({ tag_name: 'New' }) },
	{ service: 'update_tag', code: 5002, why: 'tag_name missing', params: () => ({ tag_id: 3 }) },
	{
		service: 'update_tag',
		code: 5003,
		why: 'unknown tag',
		params: () => ({ tag_id: 999, tag_name: 'New' }),
	},
	{
		service: 'update_tag',
		code: 5072,
		why: 'name of another tag (the code public integrations report)',
		params: () => ({ tag_id: 3, tag_name: 'Facebook' }),
	},
	{ service: 'delete_tag', code: 5001, why: 'tag_id missing' },
	{ service: 'delete_tag', code: 5003, why: 'unknown tag', params: () => ({ tag_id: 999 }) },
	{
		service: 'add_member_to_tag',
		code: 5001,
		why: 'tag_id missing',
		params: (c) => ({ virtualnum: c.active }),
	},
	{
		service: 'add_member_to_tag',
		code: 5003,
		why: 'unknown tag',
		params: (c) => ({ tag_id: 999, virtualnum: c.active }),
	},
	{
		service: 'add_member_to_tag',
		code: 5005,
		why: 'virtualnum missing',
		params: () => ({ tag_id: 3 }),
	},
	{
		service: 'add_member_to_tag',
		code: 5006,
		why: 'not in the account',
		params: () => ({ tag_id: 3, virtualnum: UNKNOWN }),
	},
	{
		service: 'add_member_to_tag',
		code: 5044,
		why: 'already a member (the code public integrations report)',
		params: (c) => ({ tag_id: 3, virtualnum: c.active }),
	},
	{
		service: 'remove_member_from_tag_id',
		code: 5005,
		why: 'virtualnum missing',
		params: () => ({ tag_id: 3 }),
	},
	{
		service: 'remove_member_from_tag_id',
		code: 5008,
		why: 'not a member',
		params: (c) => ({ tag_id: 3, virtualnum: c.suspended }),
	},
	{
		service: 'remove_member_from_tag_name',
		code: 5002,
		why: 'tag_name missing',
		params: (c) => ({ virtualnum: c.active }),
	},
	{
		service: 'remove_member_from_tag_name',
		code: 5003,
		why: 'unknown tag',
		params: (c) => ({ tag_name: 'Nope', virtualnum: c.active }),
	},
	{
		service: 'remove_member_from_tag_name',
		code: 5008,
		why: 'not a member',
		params: (c) => ({ tag_name: 'Google', virtualnum: c.suspended }),
	},
	{
		service: 'view_virtualnum_members_by_tag_id',
		code: 5009,
		why: 'no members',
		params: () => ({ tag_id: 6 }),
	},
	{
		service: 'get_members_by_tag_id',
		code: 5009,
		why: 'no members',
		params: () => ({ tag_id: 6 }),
	},
	{
		service: 'get_members_by_tag_name',
		code: 5009,
		why: 'no members',
		params: () => ({ tag_name: 'unused' }),
	},
	{
		service: 'get_members_by_tag_name',
		code: 5003,
		why: 'unknown tag',
		params: () => ({ tag_name: 'Nope' }),
	},
];

function context(): Ctx {
	const numbers = sb.control.virtualnums();
	const active = numbers.filter((n) => n.active_status === 1);
	return {
		active: active[0].virtualnum,
		second: active[1].virtualnum,
		suspended: numbers.find((n) => n.active_status === 0)!.virtualnum,
		callUuid: sb.control.cdrs({ hasRecording: true, limit: 1 })[0].cdr_uniqueid,
		noRecordingUuid: sb.control.cdrs({ hasRecording: false, limit: 1 })[0].cdr_uniqueid,
	};
}

async function upload(params: Record<string, string | number>, file: Case['upload']): Promise<any> {
	const form = new FormData();
	form.set('service', 'upload_prompt');
	form.set('format', 'json');
	for (const [key, value] of Object.entries(params)) form.set(key, String(value));
	if (file && file !== 'none') form.set('prompt_file', new Blob([file.bytes]), file.filename);
	const res = await fetch(`${sb.vnUrl}/api/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sb.tokens.vn}` },
		body: form,
	});
	return res.json();
}

before(async () => {
	sb = await start();
});
after(() => sb.close());

describe("service codes of the spec table (and the sandbox's tag codes)", () => {
	for (const c of [...CASES, ...TAG_CASES]) {
		test(`${c.service} ${c.code}: ${c.why}`, async () => {
			sb.control.reset();
			const ctx = context();
			await c.setup?.(ctx);
			if (c.internal)
				sb.control.injectFaults({
					kind: 'serviceError',
					code: c.code,
					server: 'vn',
					operation: c.service,
				});
			const params = c.params?.(ctx) ?? {};
			const answer = c.upload ? await upload(params, c.upload) : await vn(sb, c.service, params);
			assert.equal(answer.service, c.service);
			assert.equal(answer.status.code, c.code, `${c.service}: ${answer.status.description}`);
			assert.ok(answer.status.description.length > 0);
			produced.add(`${c.service} ${c.code}`);
		});
	}

	test('upload_prompt 9024: a file over 50 MB', async () => {
		sb.control.reset();
		const big = Buffer.alloc(50 * 1024 * 1024 + 1);
		big.write('RIFF', 0, 'latin1');
		big.write('WAVE', 8, 'latin1');
		const answer = await upload({}, { filename: 'huge.wav', bytes: big });
		assert.equal(answer.status.code, 9024);
		const [request] = sb.control.requests({ operation: 'upload_prompt' });
		assert.equal(request.files?.[0].size, big.length, 'size is counted even past the limit');
		assert.equal(
			sb.control.prompts().some((p) => p.name === 'huge'),
			false,
		);
		produced.add('upload_prompt 9024');
	});
});

describe('general codes and authentication', () => {
	test('998 without service, 999 for an unknown service', async () => {
		sb.control.reset();
		const missing = await vn(sb, '', {});
		assert.equal(missing.status.code, 998);
		const unknown = await vn(sb, 'launch_rocket', {});
		assert.equal(unknown.status.code, 999);
		assert.match(unknown.status.description, /launch_rocket/);
		const codes = specGeneralCodes().map((g) => g.code);
		assert.deepEqual(codes.sort(), [200, 401, 998, 999]);
	});

	test('each 401 text of the spec, as plain text', async () => {
		sb.control.reset();
		const texts = specUnauthorizedTexts();
		const seen: string[] = [];
		const check = async (token: string | null) => {
			const res = await vnRaw(sb, { service: 'test' }, { token });
			assert.equal(res.status, 401);
			assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
			seen.push(await res.text());
		};
		await check(null);
		await check(sb.tokens.expired);
		await check('made-up-token');
		await check(sb.tokens.sms); // a token of the other service
		await check(sb.tokens.suspended);
		sb.control.setIpAllowed(false);
		await check(sb.tokens.vn);
		sb.control.setIpAllowed(true);
		assert.deepEqual(seen, [
			'Unauthorized - Token Required',
			'Unauthorized - Token Expired',
			'Unauthorized - Invalid Token',
			'Unauthorized - Invalid Token',
			'Unauthorized - Account Suspended',
			"Unauthorized - IP Address:'127.0.0.1' is not allowed",
		]);
		for (const text of texts) {
			const pattern = new RegExp(
				`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace('<ip>', "[^']+")}$`,
			);
			assert.ok(
				seen.some((s) => pattern.test(s)),
				`no answer matched the spec text "${text}"`,
			);
		}
	});

	test("a deleted user's token stops working", async () => {
		sb.control.reset();
		const token = sb.control.issueToken(2);
		assert.equal((await vn(sb, 'test', {}, { token })).status.code, 200);
		assert.equal((await vn(sb, 'delete_user', { user_id: 2 })).status.code, 200);
		const res = await vnRaw(sb, { service: 'test' }, { token });
		assert.equal(res.status, 401);
		assert.equal(await res.text(), 'Unauthorized - Invalid Token');
	});
});

test('every (service, code) pair of the spec was produced', () => {
	const missing = specServiceCodes()
		.map((c) => `${c.service} ${c.code}`)
		.filter((key) => !produced.has(key));
	assert.deepEqual(missing, [], `no case produced: ${missing.join(', ')}`);
});
