/**
 * Bad input, table-driven over every field check of both nodes and the trigger, with the spec's
 * limits read from LIMITS (nodes/shared/checks.ts) and VN_LIMITS (nodes/shared/limits.ts)
 * as data: a value just inside each limit passes the check (its request reaches the service), a
 * value just outside fails before any request with an error that names the field. A last test
 * checks that every limit in LIMITS and VN_LIMITS is in the table, or listed as one that is not an
 * input check (with the reason).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SMS_LIMITS } from '../../nodes/shared/limits.ts';
import { LIMITS, MB } from '../../nodes/shared/checks.ts';
import { PHONE_LIMITS } from '../../nodes/shared/phones.ts';
import { GET_MANY_LIMIT as LIMIT_FIELD } from '../../nodes/VirtualNumber/helpers/utils.ts';
import { VN_LIMITS } from '../../nodes/shared/limits.ts';
import { registeredUrl } from '../../nodes/shared/triggerUrl.ts';
import { TRIGGER_LIMITS } from '../../nodes/VirtualNumberTrigger/settings.ts';
import type { Sandbox } from '../../dev/sandbox/index.mts';
import { runWorkflow } from '../../dev/harness/engine.mts';
import { TriggerHost } from '../../dev/harness/trigger.mts';
import {
	PASSWORD,
	collectError,
	collectRun,
	credentialsFor,
	expr,
	listedNumbers,
	notePicked,
	outputOf,
	rl,
	type NodeType,
} from './support.mts';

type Target = NodeType | 'trigger';

interface Row {
	/** The LIMITS entry (or TRIGGER_LIMITS as trigger.<key>, SMS_LIMITS as sms.<key>) the row exercises. */
	limit: string;
	/** The field the error names. */
	field: string;
	target: Target;
	/** The request that shows the check passed. */
	service: string;
	inside: unknown[];
	outside: unknown[];
	parameters(value: unknown): IDataObject;
	/** Input items carrying the value (binary files). */
	input?(value: unknown): INodeExecutionData[];
	/** A limit the service applies itself: over it is sent, and the node says what the service keeps. */
	overIsNotice?: (output: IDataObject) => void;
	/** Shown in the test name instead of the values (long ones). */
	show?(value: unknown): string;
}

const A_NUMBER = '0722000100';
/** The spec's limits, and the rules of the Virtual Number node's own operations the rows exercise. */
const L = {
	...LIMITS,
	...VN_LIMITS,
	virtualnumForUpdate: { minLength: PHONE_LIMITS.virtualnumMinDigits },
	// The package's own rules (not the spec's), as the nodes' fields and docs state them.
	/** Virtual Number → Get Many's Limit. */
	getManyLimit: { min: 1, max: 10000 },
	cdrQueryLimit: LIMIT_FIELD,
	/** The Timeout option of the call-record operations: up to an hour. */
	longTimeoutSec: { min: 1, max: 3600 },
	/** Two-Leg Call's custom parameter names: plain names that cannot shadow the operation's own. */
	customParameterName: {
		pattern: /^[A-Za-z][A-Za-z0-9_]{0,63}$/,
		reserved: [
			'service',
			'format',
			'virtualnum',
			'virtualnum1',
			'virtualnum2',
			'destination1',
			'destination2',
		],
	},
};
const S = SMS_LIMITS;

/** Comma-separated 10-digit numbers and a last one of 3-13 digits (the service takes 3-15), exactly `length` characters. */
function phoneList(length: number): string {
	const full = Math.floor((length - 3) / 11);
	return `${'0501234567,'.repeat(full)}${'7'.repeat(length - 11 * full)}`;
}
const url = (length: number) => {
	const head = 'https://crm.example.com/calls?x=';
	return head + 'a'.repeat(length - head.length);
};
const email = (length: number) => `${'u'.repeat(length - '@example.com'.length)}@example.com`;
const password = (length: number) => `Ab1${'x'.repeat(length - 3)}`;
/** A SELECT of exactly `bytes` bytes; with `multibyte`, padded with 2-byte characters (fewer characters than bytes). */
function sqlOf(bytes: number, multibyte = false): string {
	const head = "SELECT cdr_uniqueid FROM webserviceview WHERE user_name = '";
	const room = bytes - Buffer.byteLength(head) - 1;
	const pad = multibyte
		? 'é'.repeat(Math.floor(room / 2)) + 'e'.repeat(room % 2)
		: 'e'.repeat(room);
	return `${head}${pad}'`;
}
/** Longest name the custom-parameter pattern allows ({0,N} after the first letter). */
const CUSTOM_NAME_MAX = 1 + Number(/\{0,(\d+)\}/.exec(L.customParameterName.pattern.source)![1]);

function wav(bytes: number): Buffer {
	const data = Buffer.alloc(bytes);
	data.write('RIFF', 0, 'latin1');
	data.writeUInt32LE(bytes - 8, 4);
	data.write('WAVEfmt ', 8, 'latin1');
	return data;
}
const fileInput = (fileName: string, data: Buffer): INodeExecutionData[] => [
	{
		json: {},
		binary: {
			data: {
				data: data.toString('base64'),
				mimeType: 'application/octet-stream',
				fileName,
				bytes: data.length,
			} as IBinaryData,
		},
	},
];

const range = (min: number, max: number) => ({ inside: [min, max], outside: [min - 1, max + 1] });

const create = (extra: IDataObject) => ({
	resource: 'virtualnum',
	operation: 'create',
	description: 'Robust',
	callDestinationPhone: '0501234567',
	...extra,
});
const setting = (name: string) => (value: unknown) =>
	create({ additionalFields: { [name]: expr(value) } });

export const ROWS: Row[] = [
	// ---- Virtual Number → Virtual Number
	{
		limit: 'description',
		field: 'Description',
		target: 'virtualNumber',
		service: 'create_virtualnum',
		inside: [1, L.description.maxLength],
		outside: [L.description.maxLength + 1],
		parameters: (n) => create({ description: expr('d'.repeat(n as number)) }),
		show: (n) => `${n as number} characters`,
	},
	{
		limit: 'callDestinationPhone',
		field: 'Destination Phones',
		target: 'virtualNumber',
		service: 'create_virtualnum',
		inside: [L.callDestinationPhone.maxLength],
		outside: [L.callDestinationPhone.maxLength + 1],
		parameters: (n) => create({ callDestinationPhone: expr(phoneList(n as number)) }),
		show: (n) => `${n as number} characters`,
	},
	{
		limit: 'callbackUrl',
		field: 'Callback URL',
		target: 'virtualNumber',
		service: 'create_virtualnum',
		inside: [L.callbackUrl.maxLength],
		outside: [L.callbackUrl.maxLength + 1],
		parameters: (n) => setting('callbackUrl')(url(n as number)),
		show: (n) => `${n as number} characters`,
	},
	{
		limit: 'privateField',
		field: 'Private Fields: Private Field 1',
		target: 'virtualNumber',
		service: 'create_virtualnum',
		inside: [L.privateField.maxLength],
		outside: [L.privateField.maxLength + 1],
		parameters: (n) =>
			create({
				additionalFields: {
					privateFields: {
						field: [{ name: 'private_field1', value: expr('p'.repeat(n as number)) }],
					},
				},
			}),
		show: (n) => `${n as number} characters`,
	},
	{
		limit: 'dialTimeoutInSec',
		field: 'Dial Timeout (Seconds)',
		target: 'virtualNumber',
		service: 'create_virtualnum',
		...range(L.dialTimeoutInSec.min, L.dialTimeoutInSec.max),
		parameters: setting('dialTimeoutInSec'),
	},
	{
		limit: 'recordPercentage',
		field: 'Recording Percentage',
		target: 'virtualNumber',
		service: 'create_virtualnum',
		...range(L.recordPercentage.min, L.recordPercentage.max),
		parameters: setting('recordPercentage'),
	},
	{
		limit: 'workingHours',
		field: 'Working Hours Pattern',
		target: 'virtualNumber',
		service: 'create_virtualnum',
		inside: [L.workingHours.length],
		outside: [L.workingHours.length - 1, L.workingHours.length + 1],
		parameters: (n) => setting('workingHoursPattern')('1'.repeat(n as number)),
		show: (n) => `${n as number} characters`,
	},
	{
		limit: 'virtualnum',
		field: 'Virtual Number',
		target: 'virtualNumber',
		service: 'get_virtualnum',
		inside: ['1'.repeat(PHONE_LIMITS.virtualnumMinDigits), '+972 3-555 1234'],
		outside: ['1'.repeat(PHONE_LIMITS.virtualnumMinDigits - 1), '0722-000-10x'],
		parameters: (v) => ({ resource: 'virtualnum', operation: 'get', virtualnum: rl(expr(v)) }),
	},
	{
		limit: 'virtualnumForUpdate',
		field: 'Virtual Number',
		target: 'virtualNumber',
		service: 'get_virtualnum',
		inside: ['1'.repeat(L.virtualnumForUpdate.minLength)],
		outside: ['1'.repeat(L.virtualnumForUpdate.minLength - 1)],
		parameters: (v) => ({
			resource: 'virtualnum',
			operation: 'update',
			virtualnum: rl(expr(v)),
			updateFields: { description: 'x' },
		}),
	},
	{
		limit: 'getManyLimit',
		field: 'Limit',
		target: 'virtualNumber',
		service: 'get_virtualnum',
		...range(L.getManyLimit.min, L.getManyLimit.max),
		parameters: (n) => ({
			resource: 'virtualnum',
			operation: 'getAll',
			returnAll: false,
			limit: expr(n),
		}),
	},
	{
		limit: 'availableAmount',
		field: 'Amount',
		target: 'virtualNumber',
		service: 'get_available_virtualnum',
		...range(L.availableAmount.min, L.availableAmount.max),
		parameters: (n) => ({
			resource: 'virtualnum',
			operation: 'getAvailable',
			searchBy: 'none',
			amount: expr(n),
		}),
	},
	// ---- Call
	{
		limit: 'customParameterName',
		field: 'Custom Parameters (parameter 1): Name',
		target: 'virtualNumber',
		service: 'create_virtualnum_call_v2',
		inside: ['p'.repeat(CUSTOM_NAME_MAX), 'campaign_id'],
		outside: ['p'.repeat(CUSTOM_NAME_MAX + 1), '1campaign', ...L.customParameterName.reserved],
		parameters: (name) => ({
			resource: 'call',
			operation: 'twoLegCall',
			virtualnum1: rl(A_NUMBER),
			destination1: '0501234567',
			destination2: '0527654321',
			customParameters: { parameter: [{ name: expr(name), value: 'x' }] },
		}),
		show: (name) =>
			(name as string).length > 20 ? `${(name as string).length} characters` : String(name),
	},
	{
		limit: 'click2callExpireDays',
		field: 'Valid for (Days)',
		target: 'virtualNumber',
		service: 'click2call_link',
		inside: [L.click2callExpireDays.min, 3650],
		outside: [L.click2callExpireDays.min - 1],
		parameters: (n) => ({
			resource: 'call',
			operation: 'createLink',
			virtualnum: rl(A_NUMBER),
			destination: '0501234567',
			options: { expireDays: expr(n) },
		}),
	},
	// ---- Call Record
	{
		limit: 'cdrQueryLimit',
		field: 'Limit',
		target: 'virtualNumber',
		service: 'cdr_query',
		inside: [L.cdrQueryLimit.min],
		outside: [L.cdrQueryLimit.min - 1],
		parameters: (n) => ({
			resource: 'cdr',
			operation: 'query',
			queryMode: 'builder',
			limit: expr(n),
		}),
	},
	{
		limit: 'longTimeoutSec',
		field: 'Timeout (Seconds)',
		target: 'virtualNumber',
		service: 'cdr_query',
		...range(L.longTimeoutSec.min, L.longTimeoutSec.max),
		parameters: (n) => ({
			resource: 'cdr',
			operation: 'query',
			queryMode: 'builder',
			limit: 5,
			options: { timeout: expr(n) },
		}),
	},
	{
		limit: 'cdrSql',
		field: 'SQL Statement',
		target: 'virtualNumber',
		service: 'cdr_query',
		inside: [sqlOf(L.cdrSql.maxBytes), sqlOf(L.cdrSql.maxBytes, true)],
		outside: [sqlOf(L.cdrSql.maxBytes + 1), sqlOf(L.cdrSql.maxBytes + 1, true)],
		parameters: (sql) => ({
			resource: 'cdr',
			operation: 'query',
			queryMode: 'sql',
			sql: expr(sql),
		}),
		show: (sql) =>
			`${Buffer.byteLength(sql as string)} bytes in ${(sql as string).length} characters`,
	},
	{
		limit: 'cdrTotacSec',
		field: 'Duration (Seconds)',
		target: 'virtualNumber',
		service: 'create_virtualnum_cdr',
		...range(L.cdrTotacSec.min, L.cdrTotacSec.max),
		parameters: (n) => ({
			resource: 'cdr',
			operation: 'createManual',
			virtualnum: rl(A_NUMBER),
			additionalFields: { duration: expr(n), callerNumber: '0501234567' },
		}),
	},
	// ---- Offline Conversion
	{
		limit: 'callUuidNumeric',
		field: 'Call ID',
		target: 'virtualNumber',
		service: 'get_ads_offline_conversion',
		inside: ['1730603890.8', '17'],
		outside: ['1730603890.8.1', '1730603890a', '.5'],
		parameters: (v) => ({ resource: 'offlineConversion', operation: 'get', callUuid: expr(v) }),
	},
	// ---- Blacklist: the service keeps 149 characters of a note; a longer one is sent, and the output says so
	{
		limit: 'blacklistNote',
		field: 'Note',
		target: 'virtualNumber',
		service: 'add_number_to_blacklist',
		inside: [L.blacklistNote.maxLength],
		outside: [L.blacklistNote.maxLength + 1],
		parameters: (n) => ({
			resource: 'blacklist',
			operation: 'add',
			callerNumber: '0503333333',
			scope: 'global',
			note: expr('n'.repeat(n as number)),
		}),
		overIsNotice: (output) => {
			assert.equal(output.note_truncated, true);
			assert.equal(String(output.note).length, L.blacklistNote.maxLength);
		},
		show: (n) => `${n as number} characters`,
	},
	// ---- User
	{
		limit: 'userEmail',
		field: 'Email',
		target: 'virtualNumber',
		service: 'set_user',
		inside: [L.userEmail.maxLength],
		outside: [L.userEmail.maxLength + 1],
		parameters: (n) => ({
			resource: 'user',
			operation: 'create',
			email: expr(email(n as number)),
			password: PASSWORD,
		}),
		show: (n) => `${n as number} characters`,
	},
	{
		limit: 'userPassword',
		field: 'Password',
		target: 'virtualNumber',
		service: 'set_user',
		inside: [L.userPassword.minLength],
		outside: [L.userPassword.minLength - 1],
		parameters: (n) => ({
			resource: 'user',
			operation: 'create',
			email: 'pw.check@example.com',
			password: expr(password(n as number)),
		}),
		show: (n) => `${n as number} characters`,
	},
	{
		limit: 'userPhone',
		field: 'Phone',
		target: 'virtualNumber',
		service: 'update_user',
		inside: ['5'.repeat(L.userPhone.minLength)],
		outside: ['5'.repeat(L.userPhone.minLength - 1)],
		parameters: (v) => ({
			resource: 'user',
			operation: 'update',
			userId: rl('2'),
			updateFields: { user_phone: expr(v) },
		}),
	},
	// ---- Voice Prompt
	{
		limit: 'promptFile',
		field: 'Input Binary Field',
		target: 'virtualNumber',
		service: 'upload_prompt',
		inside: [
			L.promptFile.maxBytes,
			...L.promptFile.extensions.map((extension) => `menu.${extension}`),
		],
		outside: [L.promptFile.maxBytes + 1, 'menu.txt', 'menu.exe'],
		parameters: () => ({ resource: 'prompt', operation: 'upload', binaryPropertyName: 'data' }),
		input: (v) =>
			typeof v === 'number' ? fileInput('large.wav', wav(v)) : fileInput(v as string, wav(4096)),
		show: (v) =>
			typeof v === 'number' ? `${v} bytes (${v / MB} MB${v % MB ? ' + 1 byte' : ''})` : String(v),
	},
	// ---- Bulk SMS
	{
		limit: 'sms.batchSize',
		field: 'Batch Size',
		target: 'bulkSms',
		service: 'send_sms',
		...range(S.batchSize.min, S.batchSize.max),
		parameters: (n) => ({
			resource: 'message',
			operation: 'send',
			sender: rl('VirtualNum'),
			to: '0501234567',
			message: 'x',
			options: { batchSize: expr(n) },
		}),
	},
	{
		limit: 'sms.messageLength',
		field: 'Message',
		target: 'bulkSms',
		service: 'send_sms',
		inside: [S.messageLength.default],
		outside: [S.messageLength.default + 1],
		show: (n) => `${String(n)} characters`,
		parameters: (n) => ({
			resource: 'message',
			operation: 'send',
			sender: rl('VirtualNum'),
			to: '0501234567',
			message: 'x'.repeat(Number(n)),
			options: { maxMessageLength: S.messageLength.default },
		}),
	},
	{
		limit: 'sms.batchesInFlight',
		field: 'Batches in Flight',
		target: 'bulkSms',
		service: 'send_sms',
		...range(S.batchesInFlight.min, S.batchesInFlight.max),
		parameters: (n) => ({
			resource: 'message',
			operation: 'send',
			sender: rl('VirtualNum'),
			to: '0501234567',
			message: 'x',
			options: { batchesInFlight: expr(n) },
		}),
	},
	{
		limit: 'sms.textSender',
		field: 'Sender Name',
		target: 'bulkSms',
		service: 'add_sender_text',
		inside: ['A'.padEnd(S.textSender.minLength, 'b'), 'A'.padEnd(S.textSender.maxLength, 'b')],
		outside: [
			'A'.padEnd(S.textSender.minLength - 1, 'b'),
			'A'.padEnd(S.textSender.maxLength + 1, 'b'),
			'1abc',
			'Ab c',
		],
		parameters: (v) => ({ resource: 'sender', operation: 'addText', textSender: expr(v) }),
	},
	{
		limit: 'sms.phoneSender',
		field: 'Phone Number',
		target: 'bulkSms',
		service: 'add_sender_phone_step1',
		inside: ['0501234567', '*1234'],
		outside: ['*123', '*12345', '050-12a4567'],
		parameters: (v) => ({
			resource: 'sender',
			operation: 'requestPhoneVerification',
			phoneSender: expr(v),
			otpType: 'sms',
		}),
	},
	{
		limit: 'sms.otpTypes',
		field: 'Send Code By',
		target: 'bulkSms',
		service: 'add_sender_phone_step1',
		inside: [...S.otpTypes],
		outside: ['fax'],
		parameters: (v) => ({
			resource: 'sender',
			operation: 'requestPhoneVerification',
			phoneSender: '0527654321',
			otpType: expr(v),
		}),
	},
	{
		limit: 'sms.otpCode',
		field: 'Verification Code',
		target: 'bulkSms',
		service: 'add_sender_phone_step2',
		inside: ['123456'],
		outside: ['12345', '1234567', '12345a'],
		parameters: (v) => ({
			resource: 'sender',
			operation: 'verifyPhone',
			phoneSender: '0527654321',
			otpCode: expr(v),
		}),
	},
	{
		limit: 'sms.senderSearch',
		field: 'Search',
		target: 'bulkSms',
		service: 'get_sender_list',
		inside: ['Shop24'],
		outside: ['Shop-24', 'שלום'],
		parameters: (v) => ({ resource: 'sender', operation: 'list', search: expr(v) }),
	},
	// ---- Phone numbers (nodes/shared/phones.ts): at most 15 digits (E.164), wherever a phone is typed
	{
		limit: 'phone.maxDigits',
		field: 'Phone Number to Call',
		target: 'virtualNumber',
		service: 'create_virtualnum_call',
		inside: ['+972 50-123 4567', '1'.repeat(PHONE_LIMITS.maxDigits)],
		outside: ['1'.repeat(PHONE_LIMITS.maxDigits + 1), '050+1234567'],
		parameters: (v) => ({
			resource: 'call',
			operation: 'clickToCall',
			virtualnum: rl(A_NUMBER),
			destination: expr(v),
		}),
	},
	// ---- Virtual Number Trigger (checked at activation, before any request)
	{
		limit: 'trigger.maxBodyKb',
		field: 'Max Body Size (KB)',
		target: 'trigger',
		service: 'get_virtualnum',
		...range(TRIGGER_LIMITS.maxBodyKb.min, TRIGGER_LIMITS.maxBodyKb.max),
		parameters: (n) => ({ options: { maxBodyKb: n } }),
	},
	{
		limit: 'trigger.routeDeadlineSec',
		field: 'Deadline (Seconds)',
		target: 'trigger',
		service: 'get_virtualnum',
		...range(TRIGGER_LIMITS.routeDeadlineSec.min, TRIGGER_LIMITS.routeDeadlineSec.max),
		parameters: (n) => ({
			events: ['callStarted'],
			options: { respondWith: 'destination', routeDeadlineSec: n },
		}),
	},
	// The URL the trigger registers (its webhook URL plus ?secret=…) must fit the service's callback_url limit.
	{
		limit: 'trigger.callbackUrl',
		field: 'Callback URL',
		target: 'trigger',
		service: 'get_virtualnum',
		inside: [L.callbackUrl.maxLength],
		outside: [L.callbackUrl.maxLength + 1],
		parameters: (n) => ({ options: { secretLengthForUrl: n } }),
		show: (n) => `a URL of ${n as number} characters`,
	},
];

/** LIMITS entries that are not checks of a typed value, and why. */
export const NOT_INPUT_CHECKS: Record<string, string> = {
	accessLogRows: 'an output limit of the service (at most 1000 rows), told in the field hint',
	cdrSubuniqueRows: 'an output limit of the service (at most 2000 rows), applied to the answer',
	requestRunTimeMs:
		'a fixed request timeout (voice prompts) and the default of the Timeout option, not an input',
};

export function badInputSuite(sandbox: () => Sandbox): void {
	describe('Bad input: every field check, just inside and just outside its limit (LIMITS as data)', () => {
		let host: TriggerHost;
		before(async () => {
			host = await TriggerHost.start();
		});
		after(async () => await host.close());
		beforeEach(() => sandbox().control.reset());

		const requests = (service?: string) =>
			sandbox().control.requests(service ? { operation: service } : {});

		async function run(row: Row, value: unknown, source: string) {
			if (row.target === 'trigger') return await activate(row, value, source);
			const parameters = row.parameters(value);
			notePicked(row.target, parameters);
			const result = await runWorkflow({
				nodes: [{ name: 'Node', type: row.target, parameters }],
				input: row.input ? row.input(value) : [{ json: {} }],
				credentials: credentialsFor(sandbox()),
			});
			collectRun(source, result);
			return { error: result.error, output: outputOf(result).map((item) => item.json) };
		}

		async function activate(row: Row, value: unknown, source: string) {
			const options = { ...(row.parameters(value).options as IDataObject) };
			let webhookId: string | undefined;
			if (options.secretLengthForUrl !== undefined) {
				// A secret whose length makes the registered URL exactly that long.
				webhookId = 'robust-webhook';
				// The shortest URL the trigger registers (on a number without a callback URL), with a 1-character secret.
				const shortest = registeredUrl(`${host.webhookBaseUrl}/${webhookId}/webhook`, 's', 'live', {
					url: '',
					option: 2,
				});
				options.secret = 's'.repeat((options.secretLengthForUrl as number) - shortest.length + 1);
				delete options.secretLengthForUrl;
			}
			const trigger = host.add({
				webhookId,
				parameters: {
					events: (row.parameters(value).events as string[] | undefined) ?? ['callEnded'],
					numbers: 'selected',
					virtualnums: listedNumbers([A_NUMBER]),
					options,
				},
				credentials: {
					virtualnumApi: { baseUrl: sandbox().vnUrl, accessToken: sandbox().tokens.vn },
				},
			});
			try {
				await trigger.activate();
				await trigger.deactivate();
				return { error: undefined, output: [] };
			} catch (error) {
				collectError(source, error);
				return { error: error as Error & { description?: string | null }, output: [] };
			}
		}

		for (const row of ROWS) {
			const show = (value: unknown) => (row.show ? row.show(value) : JSON.stringify(value));
			describe(`${row.limit}: ${row.field} (${row.target})`, () => {
				for (const value of row.inside) {
					test(`inside: ${show(value)} passes the check, ${row.service} is sent`, async () => {
						const { error, output } = await run(row, value, `bad input ${row.limit} inside`);
						if (error)
							assert.doesNotMatch(
								error.message,
								new RegExp(`^${escape(row.field)}:`),
								`refused by the node's check: ${error.message}`,
							);
						assert.ok(
							requests(row.service).length >= 1,
							`${row.service} was sent${error ? ` (then: ${error.message})` : ''}`,
						);
						if (row.overIsNotice && !error) assert.notEqual(output[0]?.note_truncated, true);
					});
				}
				for (const value of row.outside) {
					if (row.overIsNotice) {
						test(`over: ${show(value)} is sent, and the output says what the service keeps`, async () => {
							const { error, output } = await run(row, value, `bad input ${row.limit} over`);
							assert.equal(error, undefined, error?.message);
							assert.equal(requests(row.service).length, 1);
							row.overIsNotice!(output[0]);
						});
						continue;
					}
					test(`outside: ${show(value)} fails before any request, naming ${row.field}`, async () => {
						const { error } = await run(row, value, `bad input ${row.limit} outside`);
						assert.ok(error, 'the node fails');
						assert.match(
							error.message,
							new RegExp(`^${escape(row.field)}: `),
							`names the field: ${error.message}`,
						);
						assert.deepEqual(
							requests().map((request) => request.operation),
							[],
							'no request reached the service',
						);
					});
				}
			});
		}

		test('every limit in LIMITS, VN_LIMITS, SMS_LIMITS and TRIGGER_LIMITS is in the table, or is not a check of an input', () => {
			const covered = new Set(ROWS.map((row) => row.limit));
			const missing = [
				...[...Object.keys(LIMITS), ...Object.keys(VN_LIMITS)].filter(
					(key) => !covered.has(key) && !(key in NOT_INPUT_CHECKS),
				),
				...Object.keys(SMS_LIMITS)
					.map((key) => `sms.${key}`)
					.filter((key) => !covered.has(key)),
				...Object.keys(TRIGGER_LIMITS)
					.filter((key) => typeof (TRIGGER_LIMITS as Record<string, unknown>)[key] === 'object')
					.map((key) => `trigger.${key}`)
					.filter((key) => !covered.has(key)),
			];
			assert.deepEqual(missing, [], 'limits without a row');
			for (const key of Object.keys(NOT_INPUT_CHECKS))
				assert.ok(key in LIMITS || key in VN_LIMITS, `${key} is a LIMITS or VN_LIMITS entry`);
		});
	});
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
