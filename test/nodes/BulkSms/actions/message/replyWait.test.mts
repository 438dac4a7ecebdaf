/**
 * Send and Wait for Response, Answer By: SMS Reply: the asking run through n8n-core's
 * WorkflowExecute against the SMS sandbox and a stand-in of n8n's public Data Table API and of
 * waiting runs' resume URLs (dev/harness/n8nPublicApi.mts). What the real n8n does with the row and
 * the relay is proven in dev/e2e/lib/smsReplies.mts.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';
import { WAIT_INDEFINITELY } from 'n8n-workflow';

import { sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { runWorkflow, type RunResult } from '../../../../../dev/harness/engine.mts';
import { startN8nStandIn, type N8nStandIn } from '../../../../../dev/harness/n8nPublicApi.mts';

const NODE = 'Ask';
const TABLE = 'Virtual Number SMS Reply Waits';
const COLUMNS = [
	{ name: 'phone', type: 'string' },
	{ name: 'sender', type: 'string' },
	{ name: 'resumeUrl', type: 'string' },
	{ name: 'executionId', type: 'string' },
	{ name: 'expiresAt', type: 'date' },
	{ name: 'reasked', type: 'boolean' },
];

function parameters(overrides: IDataObject = {}): IDataObject {
	return {
		resource: 'message',
		operation: 'sendAndWait',
		sender: { __rl: true, mode: 'id', value: '050-123-4567' },
		to: '={{ $json.phone }}',
		message: 'Your appointment is tomorrow at 10:00. Reply 1 to confirm, 2 to cancel.',
		answerBy: 'smsReply',
		responseType: 'approval',
		options: {},
		...overrides,
	};
}

describe('Send and Wait for Response by SMS reply: the asking run', () => {
	const sandbox = sandboxPerFile();
	let n8n: N8nStandIn;
	before(async () => {
		n8n = await startN8nStandIn();
	});
	after(async () => await n8n.close());
	beforeEach(() => n8n.reset());

	async function run(
		overrides: IDataObject = {},
		extra: { phone?: string; apiKey?: string } = {},
	): Promise<RunResult> {
		return await runWorkflow({
			nodes: [{ name: NODE, type: 'bulkSms', parameters: parameters(overrides) }],
			input: [{ json: { phone: extra.phone ?? '+972 54-111-0010' } }],
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
				virtualnumN8nApi: { baseUrl: `${n8n.url}/`, apiKey: extra.apiKey ?? n8n.apiKey },
			},
		});
	}
	const sent = () =>
		sandbox.control
			.requests({ service: 'sms', operation: 'send_sms' })
			.flatMap((request) => request.body as IDataObject[]);
	const table = () => [...n8n.tables.values()].find((t) => t.name === TABLE);
	const rows = () => table()?.rows ?? [];

	test('sends the question alone and waits, its row written first: both numbers as one identity, the signed answers', async () => {
		const result = await run();
		assert.equal(result.error, undefined, result.error?.message);
		assert.equal(result.status, 'waiting');
		assert.equal(result.run.waitTill?.getTime(), WAIT_INDEFINITELY.getTime());
		const [message] = sent();
		assert.equal(message.message, parameters().message, 'no link in the SMS');
		assert.equal(message.sender, '0501234567');
		assert.equal(message.dest, '972541110010');

		assert.deepEqual(
			table()?.columns.map((c) => `${c.name}:${c.type}`),
			[
				'phone:string',
				'sender:string',
				'resumeUrl:string',
				'executionId:string',
				'expiresAt:date',
				'reasked:boolean',
			],
		);
		const [row] = rows();
		assert.equal(rows().length, 1);
		assert.equal(row.phone, '972541110010');
		assert.equal(row.sender, '972501234567');
		assert.equal(row.executionId, 'test-execution');
		assert.equal(row.expiresAt, null);
		assert.equal(row.reasked, false);
		const url = new URL(String(row.resumeUrl));
		assert.equal(url.pathname, '/webhook-waiting/test-execution/node-1');
		assert.equal(url.searchParams.get('via'), 'sms');
		assert.equal(url.searchParams.get('to'), '972541110010');
		assert.equal(url.searchParams.get('from'), '0501234567');
		assert.deepEqual(JSON.parse(url.searchParams.get('answers') ?? ''), [
			['approved', '1', 'כן', 'yes'],
			['declined', '2', 'לא', 'no'],
		]);
		assert.ok(url.searchParams.get('signature'));
		// The row existed before the SMS went out, so that the fastest reply finds the run.
		const written = n8n.requests.find((r) => r.method === 'POST' && r.path.endsWith('/rows'));
		const smsAt = Date.parse(sandbox.control.requests({ operation: 'send_sms' })[0].receivedAt);
		assert.ok(written && written.at <= smsAt, `${written?.at} ≤ ${smsAt}`);
	});

	test('the replies, the re-ask text and Limit Wait Time as the node sets them; Free Text carries no answers', async () => {
		const result = await run({
			approveReplies: 'מאשר, ok',
			declineReplies: 'מבטל',
			options: {
				reaskMessage: 'Please reply 1 or 2',
				limitWaitTime: {
					values: { limitType: 'afterTimeInterval', resumeAmount: 2, resumeUnit: 'hours' },
				},
			},
		});
		assert.equal(result.status, 'waiting');
		const [row] = rows();
		assert.equal(row.expiresAt, result.run.waitTill?.toISOString());
		const url = new URL(String(row.resumeUrl));
		assert.deepEqual(JSON.parse(url.searchParams.get('answers') ?? ''), [
			['approved', 'מאשר', 'ok'],
			['declined', 'מבטל'],
		]);
		assert.equal(url.searchParams.get('reask'), 'Please reply 1 or 2');

		n8n.reset();
		await run({ responseType: 'freeText', options: { reaskMessage: 'ignored without answers' } });
		const free = new URL(String(rows()[0].resumeUrl));
		assert.equal(free.searchParams.has('answers'), false);
		assert.equal(free.searchParams.has('reask'), false);
	});

	test('a text sender name is refused before anything is written or sent, saying why', async () => {
		for (const sender of ['VirtualNum', '*1234']) {
			const result = await run({ sender: { __rl: true, mode: 'id', value: sender } });
			assert.equal(result.status, 'error');
			assert.match(
				String(result.error?.message),
				/^Sender: must be a phone number that receives SMS when the answer comes by SMS reply: a reply cannot be sent to a sender name/,
			);
			assert.match(String(result.error?.message), /nothing was sent/);
		}
		assert.equal(n8n.requests.length, 0);
		assert.equal(sent().length, 0);
	});

	test('the service refusing the SMS removes the row: no reply is ever relayed to a run that does not wait', async () => {
		const result = await run({ sender: { __rl: true, mode: 'id', value: '0527654321' } });
		assert.equal(result.status, 'error');
		assert.match(String(result.error?.message), /refused the SMS to 972541110010: .*not verified/);
		assert.deepEqual(rows(), []);
		assert.ok(n8n.requests.some((r) => r.method === 'POST' && r.path.endsWith('/rows')));
	});

	test('a newer question to the same person from the same number supersedes the older run at once; other conversations and live rows stay', async () => {
		// A table of its own, seeded: the first question on it sweeps its expired rows.
		const name = 'Supersede test';
		const own = {
			id: 'SuPeRsEdEtEsT001',
			name,
			projectId: 'p',
			columns: COLUMNS,
			rows: [],
			nextId: 1,
			createdAt: '',
		};
		n8n.tables.set(own.id, own);
		const older = { state: { virtualnumRelay: 'resumed' as const }, received: [] as unknown[] };
		n8n.runs.set('41', older);
		const seed = (row: IDataObject) =>
			(own.rows as IDataObject[]).push({
				id: own.nextId++,
				reasked: false,
				expiresAt: null,
				...row,
			});
		seed({
			phone: '972541110010',
			sender: '972501234567',
			resumeUrl: n8n.resumeUrl('41'),
			executionId: '41',
		});
		seed({
			phone: '972541110010',
			sender: '972722000100',
			resumeUrl: n8n.resumeUrl('42'),
			executionId: '42',
		});
		seed({
			phone: '972541110099',
			sender: '972501234567',
			resumeUrl: n8n.resumeUrl('43'),
			executionId: '43',
		});
		const past = new Date(Date.now() - 60_000).toISOString();
		seed({
			phone: '972549999999',
			sender: '972501234567',
			resumeUrl: n8n.resumeUrl('44'),
			executionId: '44',
			expiresAt: past,
		});

		const result = await run({ options: { replyWaitsTable: name } }, { phone: '054-111-0010' });
		assert.equal(result.status, 'waiting');
		assert.deepEqual(older.received, [
			{ virtualnumRelay: 1, kind: 'superseded', by: 'test-execution' },
		]);
		assert.deepEqual(
			(own.rows as IDataObject[]).map((row) => row.executionId).sort(),
			['42', '43', 'test-execution'],
			'the older row claimed, the expired one removed, the other sender and person kept',
		);
	});

	test('a run still running when told it is superseded is asked again until it waits', async () => {
		await run();
		const older = {
			busy: 2,
			state: { virtualnumRelay: 'resumed' as const },
			received: [] as unknown[],
		};
		n8n.runs.set('51', older);
		const t = table()!;
		t.rows.length = 0;
		t.rows.push({
			id: t.nextId++,
			phone: '972541110010',
			sender: '972501234567',
			resumeUrl: n8n.resumeUrl('51'),
			executionId: '51',
			expiresAt: null,
			reasked: false,
		});
		await run();
		assert.equal(older.received.length, 3);
	});

	test('the table: found by its exact name (not one whose name holds it), created when missing, refused when a column is missing', async () => {
		const columns = (await run(), table()!.columns);
		n8n.reset();
		const similar = {
			...{ id: 'AbCdEfGhIjKlMnOp', name: `${TABLE} (old)`, projectId: 'p', columns },
			...{ rows: [], nextId: 1, createdAt: '' },
		};
		n8n.tables.set(similar.id, similar);
		assert.equal((await run()).status, 'waiting');
		assert.equal(rows().length, 1);
		assert.equal(similar.rows.length, 0);
		const named = await run({ options: { replyWaitsTable: 'Reminder replies' } });
		assert.equal(named.status, 'waiting');
		assert.equal(
			[...n8n.tables.values()].find((x) => x.name === 'Reminder replies')?.rows.length,
			1,
		);

		n8n.reset();
		const before = sent().length;
		n8n.tables.set('ZyXwVuTsRqPoNmLk', {
			...similar,
			id: 'ZyXwVuTsRqPoNmLk',
			name: 'Hand made',
			columns: [{ name: 'phone', type: 'string' }],
		});
		const refused = await run({ options: { replyWaitsTable: 'Hand made' } });
		assert.equal(refused.status, 'error');
		assert.match(
			String(refused.error?.message),
			/The Data Table "Hand made" has no column sender, resumeUrl, executionId, expiresAt, reasked/,
		);
		assert.equal(sent().length, before);
	});

	test("n8n's refusals name their fix, before anything is sent: a wrong key, a key without the scopes, no public API", async () => {
		const wrong = await run({}, { apiKey: 'n8n_api_wrong' });
		assert.match(
			String(wrong.error?.message),
			/^n8n's API refused to .*: the API key is not valid \(HTTP 401\)/,
		);

		n8n.keys.set('n8n_api_narrow', ['dataTable:list']);
		const narrow = await run({}, { apiKey: 'n8n_api_narrow' });
		assert.match(String(narrow.error?.message), /the API key lacks a scope \(HTTP 403\)/);
		assert.match(String(narrow.error?.description), /dataTableRow:delete/);

		const elsewhere = await runWorkflow({
			nodes: [{ name: NODE, type: 'bulkSms', parameters: parameters() }],
			input: [{ json: { phone: '0541110010' } }],
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
				virtualnumN8nApi: { baseUrl: `${n8n.url}/somewhere`, apiKey: n8n.apiKey },
			},
		});
		assert.match(String(elsewhere.error?.message), /the Base URL answered with a web page/);
		assert.equal(sent().length, 0);
	});
});
