/**
 * What Send keeps between the tries of Retry On Fail (nodes/BulkSms/actions/message/deliver.ts): in
 * the node's context of the execution, per run of the node, the run itself never saved as data.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';

import {
	earlierRun,
	endTry,
	keepRun,
	refuseLostRun,
} from '../../../../../nodes/BulkSms/actions/message/deliver.ts';
import type { SendRun } from '../../../../../nodes/BulkSms/actions/message/output.ts';
import { retryOnFailTries } from '../../../../../nodes/shared/n8nCompat.ts';
import type { FaultSpec } from '../../../../../dev/sandbox/index.mts';
import { type RunResult, runWorkflow } from '../../../../../dev/harness/engine.mts';
import { sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { faultOnBatch as faultOnBatchOf } from './sendTest.mts';

/** A context as n8n gives each try: the execution's node context (shared by the tries), the run index. */
function contextOf(contextData: IDataObject, runIndex: number, maxTries?: number) {
	return {
		getContext: () => contextData,
		getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
		getNode: () => ({ name: 'Send', retryOnFail: true, maxTries }),
	} as unknown as IExecuteFunctions;
}
const runOf = (attempt: number) => ({ batches: [], attempt }) as unknown as SendRun;

describe('Send: what lasts between the tries of Retry On Fail', () => {
	test("n8n's rule for Max Tries: 2 to 5, 3 when unset", () => {
		assert.deepEqual(
			[undefined, 0, 1, 2, 4, 5, 9].map((max) => retryOnFailTries(contextOf({}, 0, max).getNode())),
			[3, 3, 2, 2, 4, 5, 5],
		);
	});

	test("a try finds the run of an earlier try of the same run of the node, not of another run (a loop's next pass)", () => {
		const data: IDataObject = {};
		const run = runOf(1);
		keepRun(contextOf(data, 0), run);
		assert.equal(earlierRun(contextOf(data, 0)), run);
		assert.equal(earlierRun(contextOf(data, 1)), undefined);
	});

	test('only a small marker is data (saved with the execution); the run is not', () => {
		const data: IDataObject = {};
		keepRun(contextOf(data, 0), runOf(2));
		assert.equal(JSON.stringify(data), '{"bulkSmsSend":{"runIndex":0,"tries":2}}');
	});

	test('a try that succeeded drops everything; a failed try keeps the run until the last try, then only the marker', () => {
		const data: IDataObject = {};
		const context = contextOf(data, 0, 3);
		keepRun(context, runOf(1));
		endTry(context, runOf(1), false);
		assert.deepEqual(data, {});

		const run = runOf(2);
		keepRun(context, run);
		endTry(context, run, true);
		assert.equal(earlierRun(context), run, 'kept for try 3');
		run.attempt = 3;
		endTry(context, run, true);
		assert.equal(earlierRun(context), undefined);
		assert.deepEqual(JSON.parse(JSON.stringify(data)), { bulkSmsSend: { runIndex: 0, tries: 2 } });
	});

	test('a try after one whose run is lost refuses before sending anything', () => {
		const data: IDataObject = { bulkSmsSend: { runIndex: 0, tries: 3 } };
		assert.throws(
			() => refuseLostRun.call(contextOf(data, 0)),
			/This is try 4 of Retry On Fail, and what the earlier tries sent is no longer known: nothing was sent/,
		);
		assert.doesNotThrow(
			() => refuseLostRun.call(contextOf(data, 1)),
			'another run of the node starts afresh',
		);
		assert.doesNotThrow(() => refuseLostRun.call(contextOf({}, 0)));
	});
});

/**
 * Send under n8n's Retry On Fail, through n8n-core's own retry loop (WorkflowExecute
 * runs the node again after an error, and under Continue On Fail whenever the first output item is
 * an error item). A later try sends only the batches that certainly never reached the service; a
 * message that may have reached it is never sent again, and the output says which try sent what.
 * The measured failure this replaces: a retried Send re-sent its first batch (3 SMS to one recipient).
 */
const NODE = 'Bulk SMS';
/** Six recipients, one per item, in three batches of two. */
const DESTS = ['0521000001', '0521000002', '0521000003', '0521000004', '0521000005', '0521000006'];
const INPUT: INodeExecutionData[] = DESTS.map((to) => ({ json: { to } }));

describe('Bulk SMS → Send under Retry On Fail', { concurrency: 1 }, () => {
	const sandbox = sandboxPerFile();

	const send = (
		options: {
			onError?: INode['onError'];
			maxTries?: number;
			accessToken?: string;
			batchesInFlight?: number;
		} = {},
	) =>
		runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'bulkSms',
					parameters: {
						resource: 'message',
						operation: 'send',
						sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
						to: '={{ $json.to }}',
						message: 'Once only',
						options: {
							batchSize: 2,
							...(options.batchesInFlight ? { batchesInFlight: options.batchesInFlight } : {}),
						},
					},
					retryOnFail: true,
					maxTries: options.maxTries ?? 3,
					onError: options.onError,
				},
			],
			input: INPUT,
			credentials: {
				virtualnumSmsApi: {
					baseUrl: sandbox.smsUrl,
					accessToken: options.accessToken ?? sandbox.tokens.sms,
				},
			},
		});

	/** A fault on batch `n` (1-based) of the first try. */
	const faultOnBatch = (n: number, fault: FaultSpec, count = 1) =>
		faultOnBatchOf(sandbox, n, fault, count);
	const requestedDests = () =>
		sandbox.control
			.requests({ service: 'sms', operation: 'send_sms' })
			.map((r) => (r.body as IDataObject[]).map((m) => String(m.dest)));
	const delivered = () => sandbox.control.messages().map((m) => m.dest);
	/** Never twice: no recipient received two messages. */
	const onceEach = () => {
		const dests = delivered();
		assert.deepEqual(
			dests,
			[...new Set(dests)],
			`a recipient got two messages: ${dests.join(', ')}`,
		);
	};
	const attempts = (result: RunResult) =>
		result
			.items(NODE)
			.map(
				(item) => item.json.attempt ?? (item.json.errorDetails as IDataObject | undefined)?.attempt,
			);

	describe('without Continue On Fail', () => {
		test('a second batch refused before the service read it (401): the retry sends it and the third, never the first again', async () => {
			faultOnBatch(2, { kind: 'unauthorized', text: 'Token Expired' });
			const result = await send();
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requestedDests(), [
				DESTS.slice(0, 2),
				DESTS.slice(2, 4),
				DESTS.slice(2, 4),
				DESTS.slice(4, 6),
			]);
			assert.deepEqual(delivered(), DESTS);
			onceEach();
			const items = result.items(NODE);
			assert.deepEqual(
				items.map((item) => item.json.dest),
				DESTS,
			);
			assert.deepEqual(
				items.map((item) => item.pairedItem),
				DESTS.map((_, item) => ({ item })),
			);
			assert.deepEqual(attempts(result), [1, 1, 2, 2, 2, 2], 'each item says which try sent it');
		});

		const lost: Array<[string, FaultSpec, boolean]> = [
			['an HTTP 500', { kind: 'http500' }, false],
			['an answer cut off after the service sent the batch', { kind: 'truncatedJson' }, true],
			['an answer one result short', { kind: 'wrongLength', delta: -1 }, true],
			['a proxy page', { kind: 'html' }, false],
		];
		for (const [name, fault, carriedOut] of lost) {
			test(`${name} on the second batch: never sent again; the later tries send the rest, and the node fails saying what each try did`, async () => {
				faultOnBatch(2, fault);
				const result = await send();
				assert.ok(result.error, 'the node fails: two messages are not confirmed as sent');
				assert.deepEqual(
					requestedDests(),
					[DESTS.slice(0, 2), DESTS.slice(2, 4), DESTS.slice(4, 6)],
					'each batch requested once',
				);
				assert.deepEqual(
					delivered(),
					carriedOut ? DESTS : [...DESTS.slice(0, 2), ...DESTS.slice(4, 6)],
				);
				onceEach();
				assert.match(
					result.error.message,
					/^2 of 6 SMS messages may have been sent: the answer to their batch was lost, and they were not sent again/,
				);
				const description = String(result.error.description);
				assert.match(description, /Already sent \(4, do not send them again\)/);
				assert.match(description, /→ 0521000001 \(item 0, try 1\)/);
				assert.match(description, /→ 0521000005 \(item 4, try 2\)/);
				assert.match(
					description,
					/Possibly sent \(2\), never sent again: .* items 2-3; check the notifications report/,
				);
				assert.match(
					description,
					/Retry On Fail is on: a retry sends only the messages that never reached the service/,
				);
				const data = (result.error.context as IDataObject).data as IDataObject;
				assert.deepEqual(
					(data.sent as IDataObject[]).map((s) => [s.dest, s.attempt]),
					[
						['0521000001', 1],
						['0521000002', 1],
						['0521000005', 2],
						['0521000006', 2],
					],
				);
				assert.deepEqual(data.possiblySent, [
					{ dest: '0521000003', inputItem: 2 },
					{ dest: '0521000004', inputItem: 3 },
				]);
				assert.deepEqual(data.notSent, []);
			});
		}

		test("the second batch's recipients refused by the service: not sent again; the rest goes out, the node fails naming them", async () => {
			faultOnBatch(2, {
				kind: 'serviceError',
				code: 403,
				description: 'Sender blocked for this route',
			});
			const result = await send();
			assert.ok(result.error);
			assert.deepEqual(requestedDests(), [DESTS.slice(0, 2), DESTS.slice(2, 4), DESTS.slice(4, 6)]);
			assert.deepEqual(delivered(), [...DESTS.slice(0, 2), ...DESTS.slice(4, 6)]);
			assert.match(
				result.error.message,
				/^2 of 6 SMS messages failed: 0521000003 \(item 2\): Error - 403 – Sender blocked/,
			);
			assert.match(String(result.error.description), /Already sent \(4, do not send them again\)/);
		});

		test('failures in two tries (Max Tries 5): each batch reaches the service once at most', async () => {
			// Try 1: batch 1 sent, batch 2 refused (401). Try 2: batch 2 refused again (401). Try 3: batch 2
			// sent, batch 3 cut off (it reached the service). Tries 4 and 5 send nothing.
			faultOnBatch(2, { kind: 'unauthorized', text: 'Invalid Token' }, 2);
			sandbox.control.injectFaults({
				kind: 'slow',
				delayMs: 0,
				server: 'sms',
				operation: 'send_sms',
				count: 1,
			});
			sandbox.control.injectFaults({ kind: 'truncatedJson', server: 'sms', operation: 'send_sms' });
			const result = await send({ maxTries: 5 });
			assert.ok(result.error);
			assert.deepEqual(requestedDests(), [
				DESTS.slice(0, 2),
				DESTS.slice(2, 4),
				DESTS.slice(2, 4),
				DESTS.slice(2, 4),
				DESTS.slice(4, 6),
			]);
			assert.deepEqual(delivered(), DESTS);
			onceEach();
			const data = (result.error.context as IDataObject).data as IDataObject;
			assert.deepEqual(
				(data.sent as IDataObject[]).map((s) => s.attempt),
				[1, 1, 3, 3],
			);
			assert.deepEqual(
				(data.possiblySent as IDataObject[]).map((s) => s.dest),
				DESTS.slice(4, 6),
			);
		});

		test('all three batches in flight together, one refused (401) and one lost (500): only the refused one is sent again', async () => {
			// The faults go to the first two requests to arrive, whichever batches they are.
			sandbox.control.injectFaults({
				kind: 'unauthorized',
				text: 'Token Expired',
				server: 'sms',
				operation: 'send_sms',
			});
			sandbox.control.injectFaults({ kind: 'http500', server: 'sms', operation: 'send_sms' });
			const result = await send({ batchesInFlight: 3 });
			assert.ok(result.error, 'the lost batch is not confirmed as sent');
			const requested = requestedDests().map((dests) => dests.join(','));
			assert.equal(
				requested.length,
				4,
				`three batches, then the refused one again: ${requested.join(' | ')}`,
			);
			const [refused, lost] = requested;
			assert.equal(
				requested[3],
				refused,
				'the batch refused before it was read is the one sent again',
			);
			assert.equal(
				requested.filter((batch) => batch === lost).length,
				1,
				'the lost one is never sent again',
			);
			onceEach();
			const data = (result.error.context as IDataObject).data as IDataObject;
			const sentIn = Object.fromEntries(
				(data.sent as IDataObject[]).map((s) => [s.dest, s.attempt]),
			);
			for (const dest of refused.split(',')) assert.equal(sentIn[dest], 2);
			assert.deepEqual((data.possiblySent as IDataObject[]).map((s) => s.dest).join(','), lost);
		});

		test('a refused caller on every try (401): nothing was sent, and the error says so', async () => {
			const result = await send({ accessToken: 'not-a-token' });
			assert.ok(result.error);
			assert.equal(requestedDests().length, 3, 'the first batch, once per try');
			assert.deepEqual(delivered(), []);
			assert.match(
				String(result.error.description),
				/No message of this run was confirmed as sent/,
			);
			assert.match(String(result.error.description), /allowed IP list/);
		});
	});

	describe('with Continue On Fail (n8n also tries again when the first output item is an error item)', () => {
		test('the first batch cut off: later tries send nothing; its recipients are error items from try 1, the rest sent in try 1', async () => {
			faultOnBatch(1, { kind: 'truncatedJson' });
			const result = await send({ onError: 'continueRegularOutput' });
			assert.equal(result.error, undefined);
			assert.deepEqual(
				requestedDests(),
				[DESTS.slice(0, 2), DESTS.slice(2, 4), DESTS.slice(4, 6)],
				'n8n ran the node 3 times; each batch went once',
			);
			assert.deepEqual(delivered(), DESTS);
			onceEach();
			const items = result.items(NODE);
			assert.equal(items.length, 6);
			assert.match(
				String(items[0].json.error),
				/answered a batch of 2 messages with an answer that is not valid JSON/,
			);
			assert.deepEqual(items[0].json.errorDetails, {
				recipient: DESTS[0],
				sender: 'VirtualNum',
				attempt: 1,
			});
			assert.deepEqual(attempts(result), [1, 1, 1, 1, 1, 1]);
			assert.deepEqual(
				items.slice(2).map((item) => item.json.status),
				Array(4).fill('Message in Action'),
			);
		});

		test('the first batch refused before it was read (401): try 2 sends it, and the output is whole', async () => {
			faultOnBatch(1, { kind: 'unauthorized', text: 'Token Expired' });
			const result = await send({ onError: 'continueRegularOutput' });
			assert.equal(result.error, undefined);
			assert.deepEqual(requestedDests(), [
				DESTS.slice(0, 2),
				DESTS.slice(2, 4),
				DESTS.slice(4, 6),
				DESTS.slice(0, 2),
			]);
			onceEach();
			assert.deepEqual(delivered().sort(), [...DESTS].sort());
			assert.deepEqual(attempts(result), [2, 2, 1, 1, 1, 1]);
			assert.ok(result.items(NODE).every((item) => item.json.status === 'Message in Action'));
		});

		test('Continue (using error output): the recipients of a batch that failed go to the error output, once sent at most', async () => {
			faultOnBatch(1, { kind: 'http500' });
			const result = await send({ onError: 'continueErrorOutput' });
			assert.equal(result.error, undefined);
			assert.equal(requestedDests().length, 3);
			onceEach();
			const [success, failed] = result.outputs(NODE);
			assert.deepEqual(
				success.map((item) => item.json.dest),
				DESTS.slice(2),
			);
			assert.deepEqual(
				failed.map((item) => item.pairedItem),
				[{ item: 0 }, { item: 1 }],
			);
			for (const item of failed) {
				assert.match(String(item.json.error), /HTTP 500/);
				assert.match(String(item.json.errorDescription), /may have been carried out/);
			}
		});
	});

	test('without Retry On Fail the output has no attempt field (unchanged)', async () => {
		const result = await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'bulkSms',
					parameters: {
						resource: 'message',
						operation: 'send',
						sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
						to: DESTS[0],
						message: 'x',
					},
				},
			],
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
			},
		});
		assert.equal(result.items(NODE)[0].json.attempt, undefined);
	});
});
