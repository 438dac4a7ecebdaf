/**
 * Every operation of both nodes once, on its success path, and the trigger's three events, all
 * collected for the sweeps of the whole suite (issue 17 §2: no output key n8n refuses; and the
 * secrets sweep). Names n8n refuses are fed in where a user chooses names (a Two-Leg Call custom
 * parameter, an SQL alias) to show they come out renamed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { makeWav } from '../../dev/sandbox/audio.mts';
import type { Sandbox } from '../../dev/sandbox/index.mts';
import { TriggerHost } from '../../dev/harness/trigger.mts';
import {
	PASSWORD,
	collectItem,
	listedNumbers,
	outputOf,
	rl,
	runOne,
	type NodeType,
} from './support.mts';

const A = '0722000100';
const B = '0722000101';
const C = '0722000103';
interface Step {
	label: string;
	type: NodeType;
	parameters: (sandbox: Sandbox) => IDataObject;
	input?: INodeExecutionData[];
	/** What the output must show beyond running. */
	check?: (items: INodeExecutionData[]) => void;
}

const vn = (
	label: string,
	parameters: (sandbox: Sandbox) => IDataObject,
	input?: INodeExecutionData[],
	check?: Step['check'],
): Step => ({
	label,
	type: 'virtualNumber',
	parameters,
	input,
	check,
});
const sms = (label: string, parameters: (sandbox: Sandbox) => IDataObject): Step => ({
	label,
	type: 'bulkSms',
	parameters,
});
const firstCall = (s: Sandbox) => s.control.cdrs()[0].cdr_uniqueid;

/** In order: later steps use what earlier ones made (a restored number, a tag with a member, an OTP). */
export const EVERY_OPERATION: Step[] = [
	vn('Account → Test Connection', () => ({ resource: 'account', operation: 'test' })),
	vn('Virtual Number → Get Many', () => ({
		resource: 'virtualnum',
		operation: 'getAll',
		limit: 3,
	})),
	vn('Virtual Number → Get', () => ({
		resource: 'virtualnum',
		operation: 'get',
		virtualnum: rl(A),
	})),
	vn('Virtual Number → Get Available', () => ({
		resource: 'virtualnum',
		operation: 'getAvailable',
		amount: 2,
	})),
	vn('Virtual Number → Create', () => ({
		resource: 'virtualnum',
		operation: 'create',
		description: 'Every op',
		callDestinationPhone: '050-1234567',
	})),
	vn('Virtual Number → Update', () => ({
		resource: 'virtualnum',
		operation: 'update',
		virtualnum: rl(B),
		updateFields: { description: 'Updated' },
	})),
	vn('Virtual Number → Release', () => ({
		resource: 'virtualnum',
		operation: 'release',
		virtualnum: rl('0722000104'),
	})),
	vn('Virtual Number → Restore', () => ({
		resource: 'virtualnum',
		operation: 'restore',
		numberToRestore: '0779999001',
	})),
	vn('Call → Click to Call', () => ({
		resource: 'call',
		operation: 'clickToCall',
		virtualnum: rl(A),
		destination: '0501234567',
	})),
	vn('Call → Create Click-to-Call Link', () => ({
		resource: 'call',
		operation: 'createLink',
		virtualnum: rl(A),
		destination: '0501234567',
	})),
	vn(
		'Call → Two-Leg Call (a custom parameter named caller)',
		() => ({
			resource: 'call',
			operation: 'twoLegCall',
			virtualnum1: rl(A),
			destination1: '0501234567',
			destination2: '0527654321',
			customParameters: {
				parameter: [
					{ name: 'caller', value: 'crm' },
					{ name: 'lead', value: '7' },
				],
			},
		}),
		undefined,
		([item]) =>
			assert.deepEqual(
				item.json.custom_parameters,
				{ caller_: 'crm', lead: '7' },
				'a name n8n refuses comes out renamed',
			),
	),
	vn('Call Record → Query (builder)', () => ({
		resource: 'cdr',
		operation: 'query',
		queryMode: 'builder',
		limit: 3,
		recordingExists: true,
	})),
	vn(
		'Call Record → Query (SQL, an alias named caller)',
		() => ({
			resource: 'cdr',
			operation: 'query',
			queryMode: 'sql',
			sql: 'SELECT cdr_ani AS caller, call_status FROM webserviceview LIMIT 2',
		}),
		undefined,
		(items) => {
			// (Other columns may come out under the call-field names: only the alias is checked.)
			assert.equal(items[0].json.caller, undefined, 'no field named caller');
			assert.ok('caller_' in items[0].json, 'the alias comes out renamed');
		},
	),
	vn('Call Record → Get Metadata', (s) => ({
		resource: 'cdr',
		operation: 'getMetadata',
		callUuid: firstCall(s),
	})),
	vn('Call Record → Get Unique Callers Report', () => ({
		resource: 'cdr',
		operation: 'getUniqueCallers',
		startTime: '2024-10-01 00:00:00',
		endTime: '2024-12-31 23:59:59',
	})),
	vn('Call Record → Download Recording', (s) => ({
		resource: 'cdr',
		operation: 'downloadRecording',
		callUuid: s.control.cdrs({ hasRecording: true })[0].cdr_uniqueid,
	})),
	vn('Call Record → Create Manual Record', () => ({
		resource: 'cdr',
		operation: 'createManual',
		virtualnum: rl(A),
		additionalFields: { duration: 60, callerNumber: '0501234567' },
	})),
	vn('Offline Conversion → Set', (s) => ({
		resource: 'offlineConversion',
		operation: 'set',
		callUuid: firstCall(s),
		conversionValue: 10,
	})),
	vn('Offline Conversion → Get', (s) => ({
		resource: 'offlineConversion',
		operation: 'get',
		callUuid: firstCall(s),
	})),
	vn('User → Get Many', () => ({ resource: 'user', operation: 'getAll', returnAll: true })),
	vn('User → Get', () => ({ resource: 'user', operation: 'get', userId: rl('1') })),
	vn('User → Create', () => ({
		resource: 'user',
		operation: 'create',
		email: 'every.op@example.com',
		password: PASSWORD,
	})),
	vn('User → Update', () => ({
		resource: 'user',
		operation: 'update',
		userId: rl('2'),
		updateFields: { user_login: 'agent-one' },
	})),
	vn('User → Assign Number', () => ({
		resource: 'user',
		operation: 'assignNumber',
		userId: rl('2'),
		virtualnum: rl('0722000102'),
	})),
	vn('User → Get Assigned Numbers', () => ({
		resource: 'user',
		operation: 'getNumbers',
		userId: rl('2'),
	})),
	vn('User → Unassign Number', () => ({
		resource: 'user',
		operation: 'unassignNumber',
		userId: rl('2'),
		virtualnum: rl('0722000102'),
	})),
	vn('User → Get Access Log', () => ({ resource: 'user', operation: 'getAccessLog' })),
	vn('User → Delete', () => ({ resource: 'user', operation: 'delete', userId: rl('2') })),
	vn('Tag → Get Many', () => ({ resource: 'tag', operation: 'getAll', returnAll: true })),
	vn('Tag → Get', () => ({ resource: 'tag', operation: 'get', tagId: rl('3') })),
	vn('Tag → Get by Name', () => ({ resource: 'tag', operation: 'getByName', name: 'Goo' })),
	vn('Tag → Get Tags of Number', () => ({
		resource: 'tag',
		operation: 'getForNumber',
		virtualnum: rl(A),
	})),
	vn('Tag → Get Members', () => ({ resource: 'tag', operation: 'getMembers', tagId: rl('3') })),
	vn('Tag → Get Member Records', () => ({
		resource: 'tag',
		operation: 'getMemberRecords',
		tagId: rl('3'),
	})),
	vn('Tag → Get Members by Tag Name', () => ({
		resource: 'tag',
		operation: 'getMembersByName',
		tagName: rl('Google'),
	})),
	vn('Tag → Create', () => ({ resource: 'tag', operation: 'create', name: 'Every op' })),
	vn('Tag → Rename', () => ({
		resource: 'tag',
		operation: 'rename',
		tagId: rl('6'),
		newName: 'Renamed',
	})),
	vn('Tag → Add Number', () => ({
		resource: 'tag',
		operation: 'addMember',
		tagId: rl('6'),
		virtualnum: rl(C),
	})),
	vn('Tag → Remove Number', () => ({
		resource: 'tag',
		operation: 'removeMember',
		tagId: rl('6'),
		virtualnum: rl(C),
	})),
	vn('Tag → Add Number (again)', () => ({
		resource: 'tag',
		operation: 'addMember',
		tagId: rl('6'),
		virtualnum: rl(C),
	})),
	vn('Tag → Remove Number by Tag Name', () => ({
		resource: 'tag',
		operation: 'removeMemberByName',
		tagName: rl('Renamed'),
		virtualnum: rl(C),
	})),
	vn('Tag → Delete', () => ({ resource: 'tag', operation: 'delete', tagId: rl('6') })),
	vn('Blacklist → Get Many', () => ({
		resource: 'blacklist',
		operation: 'getAll',
		returnAll: true,
	})),
	vn('Blacklist → Add', () => ({
		resource: 'blacklist',
		operation: 'add',
		callerNumber: '+972 50-333-3333',
		scope: 'global',
		note: 'every op',
	})),
	vn('Blacklist → Remove', () => ({
		resource: 'blacklist',
		operation: 'remove',
		callerNumber: '+972 50-333-3333',
		scope: 'global',
	})),
	vn('Voice Prompt → Get Many', () => ({
		resource: 'prompt',
		operation: 'getAll',
		returnAll: true,
	})),
	vn('Voice Prompt → Download', () => ({
		resource: 'prompt',
		operation: 'download',
		promptName: rl('welcome'),
	})),
	vn(
		'Voice Prompt → Upload',
		() => ({ resource: 'prompt', operation: 'upload', binaryPropertyName: 'data' }),
		[
			{
				json: {},
				binary: {
					data: {
						data: makeWav(4000, 330).toString('base64'),
						mimeType: 'audio/wav',
						fileName: 'every-op.wav',
					},
				},
			},
		],
	),
	vn('Voice Prompt → Record by Phone', () => ({
		resource: 'prompt',
		operation: 'record',
		destination: '0501234567',
	})),
	vn('Voice Prompt → Delete', () => ({
		resource: 'prompt',
		operation: 'delete',
		promptName: rl('hold_music'),
	})),
	sms('Message → Send', () => ({
		resource: 'message',
		operation: 'send',
		sender: rl('VirtualNum'),
		to: '0501234567, 0527654321',
		message: 'Every operation',
	})),
	sms('Sender → List', () => ({ resource: 'sender', operation: 'list' })),
	sms('Sender → Add Text Sender', () => ({
		resource: 'sender',
		operation: 'addText',
		textSender: 'EveryOp',
	})),
	sms('Sender → Request Phone Verification', () => ({
		resource: 'sender',
		operation: 'requestPhoneVerification',
		phoneSender: '0527654321',
		otpType: 'sms',
	})),
	sms('Sender → Verify Phone Sender', (s) => ({
		resource: 'sender',
		operation: 'verifyPhone',
		phoneSender: '0527654321',
		otpCode: s.control.otp('0527654321') ?? '',
	})),
	sms('Credit → Get Balance', () => ({ resource: 'credit', operation: 'getBalance' })),
];

/** Source tags of the collected items, for the sweeps. */
export const EVERY_OPERATION_SOURCE = 'every operation: ';
export const TRIGGER_EVENT_SOURCE = 'trigger event: ';

export function everyOperationSuite(sandbox: () => Sandbox): void {
	describe('Every operation of both nodes, and the trigger events, on their success path', () => {
		before(() => sandbox().control.reset());

		for (const step of EVERY_OPERATION) {
			test(step.label, async () => {
				const result = await runOne(
					`${EVERY_OPERATION_SOURCE}${step.label}`,
					sandbox(),
					step.type,
					step.parameters(sandbox()),
					{ items: step.input },
				);
				assert.equal(
					result.error,
					undefined,
					`${step.label}: ${result.error?.message} ${result.error?.description ?? ''}`,
				);
				assert.ok(outputOf(result).length > 0, 'it outputs items');
				step.check?.(outputOf(result));
			});
		}

		triggerEvents(sandbox);
	});
}

/** The trigger's three events (call started, call ended, SMS delivery) through its webhook, collected. */
function triggerEvents(sandbox: () => Sandbox): void {
	let host: TriggerHost;
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	test("the trigger's three events", async () => {
		const t = host.add({
			parameters: {
				events: ['callStarted', 'callEnded', 'smsDelivery'],
				numbers: 'selected',
				virtualnums: listedNumbers([A]),
			},
			credentials: {
				virtualnumApi: { baseUrl: sandbox().vnUrl, accessToken: sandbox().tokens.vn },
			},
		});
		await t.activate();
		try {
			await sandbox().control.placeCall({ virtualnum: A, caller: '0541234567', durationSec: 30 });
			await fetch(`${sandbox().smsUrl}/api/ws_json_bulk.php`, {
				method: 'POST',
				headers: {
					Authorization: `Bearer ${sandbox().tokens.sms}`,
					'Content-Type': 'application/json',
				},
				body: JSON.stringify([
					{
						dest: '0541112222',
						sender: 'VirtualNum',
						message: 'Shipped',
						callback_url: t.webhookUrl,
					},
				]),
			});
			await sandbox().control.flushScheduled();
			await sandbox().control.settle();
		} finally {
			await t.deactivate();
		}
		const items = t.executions.flat();
		const events = items.map((item) => String(item.json.event)).sort();
		assert.deepEqual(events, ['call.ended', 'call.started', 'sms.delivery']);
		for (const item of items)
			collectItem(`${TRIGGER_EVENT_SOURCE}${String(item.json.event)}`, item);
	});
}
