/**
 * A service that never answers, on the operations that have no Timeout option (every operation
 * but the call-record ones): the node gives up at its default timeout (60 s), names the
 * operation, and for a send, a call or a write says the change may have been made; exactly one
 * request each, no retry. All of them wait at once, on their own sandbox, in the background of
 * the other robustness suites (so the suite waits 60 s once, not once per operation).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';
import { TriggerHost } from '../../dev/harness/trigger.mts';
import {
	MAY_HAVE_HAPPENED,
	OPERATIONS,
	TRIGGER_SECRET,
	collectError,
	failureOf,
	listedNumbers,
	namesOperation,
	outputOf,
	requestsTo,
	runOne,
	type Operation,
} from './support.mts';

/** The transports' default request timeout (nodes/shared/transport/http.ts). */
const DEFAULT_TIMEOUT_S = 60;

export function hangSuite(): void {
	describe(
		`Hangs on operations without a Timeout option: the default ${DEFAULT_TIMEOUT_S} s timeout ends them`,
		{ concurrency: 1 },
		() => {
			// Two sandboxes: the trigger's registration reads numbers too (get_virtualnum), which must not
			// take the hang meant for Virtual Number → Get.
			let sandbox: Sandbox;
			let triggerSandbox: Sandbox;
			let host: TriggerHost;
			before(async () => {
				sandbox = await startSandbox();
				triggerSandbox = await startSandbox();
				host = await TriggerHost.start();
			});
			after(async () => {
				await host.close();
				await sandbox.close();
				await triggerSandbox.close();
			});

			test('every representative operation without a Timeout option, and the trigger registration, with and without Continue On Fail', async () => {
				const waiting = OPERATIONS.filter((op) => !op.timeout);
				for (const op of waiting)
					sandbox.control.injectFaults({
						kind: 'hang',
						server: op.server,
						operation: op.service,
						count: 2,
					});
				triggerSandbox.control.injectFaults({
					kind: 'hang',
					server: 'vn',
					operation: 'update_virtualnum',
					count: 1,
				});

				const [a, b] = ['0722000101', '0722000102'];
				const before = [a, b].map((number) => ({ ...triggerSandbox.control.virtualnum(number)! }));
				const trigger = host.add({
					parameters: {
						events: ['callStarted', 'callEnded'],
						numbers: 'selected',
						virtualnums: listedNumbers([a, b]),
						options: { secret: TRIGGER_SECRET },
					},
					credentials: {
						virtualnumApi: { baseUrl: triggerSandbox.vnUrl, accessToken: triggerSandbox.tokens.vn },
					},
				});
				const started = Date.now();
				const registration = trigger.activate().then(
					() => ({ ms: Date.now() - started, error: undefined as Error | undefined }),
					(error: Error) => ({ ms: Date.now() - started, error }),
				);
				const runs = waiting.flatMap((op) =>
					[false, true].map(async (continueOnFail) => ({
						op,
						continueOnFail,
						result: await runOne(
							`hang on ${op.service}`,
							sandbox,
							op.type,
							op.parameters(sandbox),
							{ continueOnFail },
						),
					})),
				);
				const outcomes = await Promise.all(runs);

				for (const { op, continueOnFail, result } of outcomes) {
					const tag = `${op.label} ${continueOnFail ? 'with' : 'without'} Continue On Fail`;
					assert.ok(
						result.ms >= (DEFAULT_TIMEOUT_S - 1) * 1000,
						`${tag}: waited for the timeout (${result.ms} ms)`,
					);
					assert.ok(
						result.ms < (DEFAULT_TIMEOUT_S + 15) * 1000,
						`${tag}: not past the timeout (${result.ms} ms)`,
					);
					checkWords(op, tag, continueOnFail ? errorItemWords(result, tag) : errorWords(result));
				}
				for (const op of waiting)
					assert.equal(
						requestsTo(sandbox, op).length,
						2,
						`${op.label}: one request per run, no retry`,
					);

				const { ms, error } = await registration;
				assert.ok(error, 'the registration fails');
				collectError('hang on update_virtualnum (trigger)', error);
				assert.ok(ms < (DEFAULT_TIMEOUT_S + 15) * 1000, `the registration gave up in ${ms} ms`);
				assert.match(error.message, /did not answer update_virtualnum within 60 s/);
				// n8n called delete after the failed create: both numbers are as they were.
				for (const record of before) {
					const now = triggerSandbox.control.virtualnum(record.virtualnum)!;
					assert.deepEqual(
						{ url: now.callback_url, option: now.callback_url_option },
						{ url: record.callback_url, option: record.callback_url_option },
						`${record.virtualnum} is as it was`,
					);
				}
			});
		},
	);
}

function errorWords(result: Awaited<ReturnType<typeof runOne>>): {
	message: string;
	words: string;
} {
	const error = failureOf(result);
	return { message: error.message, words: `${error.message}\n${error.description ?? ''}` };
}

function errorItemWords(
	result: Awaited<ReturnType<typeof runOne>>,
	tag: string,
): { message: string; words: string } {
	assert.equal(result.error, undefined, `${tag}: the workflow goes on`);
	const items = outputOf(result);
	assert.ok(
		items.length > 0 && items.every((item) => item.json.error !== undefined),
		`${tag}: error items only`,
	);
	for (const item of items)
		assert.deepEqual(item.pairedItem, { item: 0 }, `${tag}: paired to its input`);
	return {
		message: String(items[0].json.error),
		words: `${String(items[0].json.error)}\n${String(items[0].json.errorDescription ?? '')}`,
	};
}

function checkWords(
	op: Operation,
	tag: string,
	{ message, words }: { message: string; words: string },
): void {
	assert.match(message, namesOperation(op), `${tag}: names the operation: ${message}`);
	assert.match(
		message,
		new RegExp(`did not answer ${op.service} within ${DEFAULT_TIMEOUT_S} s`),
		`${tag}: says it timed out: ${message}`,
	);
	if (op.sideEffect)
		assert.match(words, MAY_HAVE_HAPPENED, `${tag}: says the change may have been made: ${words}`);
}
