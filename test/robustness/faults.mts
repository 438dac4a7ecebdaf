/**
 * Every fault the sandbox injects, on the representative operation of each resource of both
 * nodes: the node fails with an error naming the operation and what happened, or with Continue
 * On Fail gives error items paired to their input, never a crash, a wrong success, a retry or a
 * wait past the timeout. Hangs on operations without a Timeout option are in hangs.mts (they wait
 * for the default 60 s, in the background of this suite).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { FaultSpec, Sandbox } from '../../dev/sandbox/index.mts';
import { TriggerHost } from '../../dev/harness/trigger.mts';
import { startRecorder } from '../../dev/harness/recorder.mts';
import {
	MAY_HAVE_HAPPENED,
	OPERATIONS,
	TRIGGER_SECRET,
	assertNodeError,
	collectError,
	failureOf,
	listedNumbers,
	namesOperation,
	outputOf,
	requestsTo,
	runOne,
	type Operation,
} from './support.mts';

interface FaultCase {
	name: string;
	fault: FaultSpec;
	/** What the error must say happened; undefined when the node must succeed. */
	expect?: RegExp;
	/** The service may have carried out the operation before the answer went wrong (side-effect operations must say so). */
	uncertain?: boolean;
}

const UNAUTHORIZED: Array<[FaultSpec & { kind: 'unauthorized' }, RegExp]> = [
	[
		{ kind: 'unauthorized', text: 'IP' },
		/IP address of your n8n server is not in the allowed IP list/,
	],
	[{ kind: 'unauthorized', text: 'Token Required' }, /requires an access token and none was sent/],
	[{ kind: 'unauthorized', text: 'Token Expired' }, /access token has expired/],
	[{ kind: 'unauthorized', text: 'Invalid Token' }, /access token is not valid for this service/],
	[{ kind: 'unauthorized', text: 'Account Suspended' }, /account is suspended/],
];

export const FAULT_CASES: FaultCase[] = [
	{ name: 'HTTP 500', fault: { kind: 'http500' }, expect: /HTTP 500/, uncertain: true },
	{
		name: 'an HTML proxy page (502)',
		fault: { kind: 'html' },
		expect: /HTTP 502/,
		uncertain: true,
	},
	{
		name: 'truncated JSON',
		fault: { kind: 'truncatedJson' },
		expect: /not valid JSON \(it may have been cut off\)/,
		uncertain: true,
	},
	{
		name: 'XML despite format=json',
		fault: { kind: 'xml' },
		expect: /XML instead of JSON/,
		uncertain: true,
	},
	{ name: 'an empty answer', fault: { kind: 'empty' }, expect: /an empty answer/, uncertain: true },
	...UNAUTHORIZED.map(([fault, expect]) => ({ name: `401 "${fault.text}"`, fault, expect })),
	{ name: 'a slow answer (400 ms, within the timeout)', fault: { kind: 'slow', delayMs: 400 } },
	{
		name: 'a service error (code 999)',
		fault: { kind: 'serviceError', code: 999, description: 'database gone away' },
		expect: /999|database gone away/,
		uncertain: true,
	},
];

/** What a wrong-length answer (one result short) must give for the operation. */
function wrongLengthExpect(op: Operation): RegExp | undefined {
	if (op.service === 'send_sms') return /answered 1 results for a batch of 2 messages/;
	if (op.service === 'get_virtualnum') return /0722000100/;
	return undefined;
}

export function faultSuite(sandbox: () => Sandbox): void {
	describe('Faults: every injected fault on a representative operation of each resource', () => {
		beforeEach(() => sandbox().control.reset());

		for (const op of OPERATIONS) {
			describe(op.label, () => {
				const cases: FaultCase[] = [
					...FAULT_CASES,
					{
						name: 'a wrong-length answer (one item short)',
						fault: { kind: 'wrongLength' },
						expect: wrongLengthExpect(op),
					},
				];
				if (op.timeout) {
					cases.push(
						{
							name: 'a hang past the Timeout option (1 s)',
							fault: { kind: 'hang' },
							expect: new RegExp(`did not answer ${op.service} within 1 s`),
							uncertain: true,
						},
						{
							name: 'a slow answer past the Timeout option',
							fault: { kind: 'slow', delayMs: 1_500 },
							expect: new RegExp(`did not answer ${op.service} within 1 s`),
							uncertain: true,
						},
					);
				}
				for (const fault of cases) {
					test(`${fault.name}: ${fault.expect ? 'a clear error, or error items with Continue On Fail' : 'the right result'}`, async () => {
						await checkFault(sandbox(), op, fault);
					});
				}
			});
		}
	});
}

/**
 * The trigger's registration (update_virtualnum on each chosen number, at activation): every
 * fault makes the activation fail with an error naming the operation and what happened (a slow
 * answer or an answer whose result is not a list changes nothing), and after n8n's clean-up every
 * number is as it was, a foreign callback URL included.
 */
export function triggerFaultSuite(sandbox: () => Sandbox): void {
	describe('Faults: Virtual Number Trigger → registration (update_virtualnum at activation)', () => {
		let host: TriggerHost;
		before(async () => {
			host = await TriggerHost.start();
		});
		after(async () => await host.close());
		beforeEach(() => sandbox().control.reset());

		const FOREIGN = 'https://crm.example.com/hooks/calls?source=virtualnum';
		const numbers = ['0722000103', '0722000104'];
		const cases: FaultCase[] = [
			...FAULT_CASES,
			{ name: 'a wrong-length answer (one item short)', fault: { kind: 'wrongLength' } },
		];
		for (const fault of cases) {
			test(`${fault.name}: ${fault.expect ? 'the activation fails naming update_virtualnum, every number as it was' : 'registered, and restored on deactivation'}`, async () => {
				sandbox().control.seed({
					virtualnum: { virtualnum: numbers[0], callback_url: FOREIGN, callback_url_option: 1 },
				});
				const before = numbers.map((number) => ({ ...sandbox().control.virtualnum(number)! }));
				sandbox().control.clearRequests();
				sandbox().control.injectFaults({
					...fault.fault,
					server: 'vn',
					operation: 'update_virtualnum',
				});
				const trigger = host.add({
					parameters: {
						events: ['callStarted', 'callEnded'],
						numbers: 'selected',
						virtualnums: listedNumbers(numbers),
						options: { secret: TRIGGER_SECRET },
					},
					credentials: {
						virtualnumApi: { baseUrl: sandbox().vnUrl, accessToken: sandbox().tokens.vn },
					},
				});
				const started = Date.now();
				const error = await trigger.activate().then(
					() => undefined,
					(failure: Error & { description?: string | null }) => failure,
				);
				assert.ok(Date.now() - started < 10_000, 'answered in time');
				const asBefore = (when: string) => {
					for (const record of before) {
						const now = sandbox().control.virtualnum(record.virtualnum)!;
						assert.deepEqual(
							{ url: now.callback_url, option: now.callback_url_option },
							{ url: record.callback_url, option: record.callback_url_option },
							`${record.virtualnum} is as it was ${when}`,
						);
					}
				};
				if (!fault.expect) {
					assert.equal(error, undefined, error?.message);
					for (const number of numbers)
						assert.match(sandbox().control.virtualnum(number)!.callback_url, /\/webhook\?secret=/);
					await trigger.deactivate();
					asBefore('after deactivation');
					return;
				}
				assert.ok(error, 'the activation fails');
				collectError(`fault ${fault.name} on the trigger registration`, error);
				assertNodeError(error);
				const words = `${error.message}\n${error.description ?? ''}`;
				assert.match(
					error.message,
					/Could not register the trigger on 07220001\d\d: .*\bupdate_virtualnum\b/,
					error.message,
				);
				assert.match(words, fault.expect, words);
				asBefore('after the failed activation');
				assert.doesNotMatch(
					JSON.stringify(trigger.savedStaticData()),
					/registrations/,
					'nothing left to restore',
				);
			});
		}

		test('a cut-off answer that quotes the registered URL never brings the secret into an error or a log line', async () => {
			// A service that echoes the number's record (its callback URL, with the secret, first) and cuts the answer off.
			const service = await startRecorder();
			const record = {
				virtualnum: '0722000103',
				callback_url_option: 2,
				description: 'Line',
				call_destination_phone: '0501234567',
				active_status: 1,
			};
			service.answer((request) => {
				const params = {
					...request.query,
					...Object.fromEntries(new URLSearchParams(request.body)),
				};
				if (params.service === 'update_virtualnum') {
					const echo = JSON.stringify({
						service: 'update_virtualnum',
						status: { code: 200, description: 'Success' },
						result: { callback_url: params.callback_url, ...record },
					});
					return {
						headers: { 'Content-Type': 'application/json' },
						body: echo.slice(0, echo.length - 20),
					};
				}
				return {
					body: {
						service: params.service,
						status: { code: 200, description: 'Success' },
						result: [{ ...record, callback_url: params.callback_url ?? '' }],
					},
				};
			});
			const logsBefore = host.logCount;
			try {
				const trigger = host.add({
					// A short webhook id: the quoted URL, secret included, falls within the part of the answer an error quotes.
					webhookId: 'w1',
					parameters: {
						events: ['callEnded'],
						numbers: 'selected',
						virtualnums: listedNumbers(['0722000103']),
						options: { secret: TRIGGER_SECRET },
					},
					credentials: {
						virtualnumApi: { baseUrl: service.url, accessToken: 'token-of-a-scripted-service' },
					},
				});
				const error = await trigger.activate().then(
					() => undefined,
					(failure: Error & { description?: string | null }) => failure,
				);
				assert.ok(error, 'the activation fails');
				collectError('trigger registration, cut-off answer quoting the URL', error);
				assert.match(error.message, /update_virtualnum/);
				assert.ok(
					service.requests.some(
						(request) =>
							request.body.includes(encodeURIComponent(TRIGGER_SECRET)) ||
							request.body.includes(TRIGGER_SECRET),
					),
					'the secret was registered',
				);
				const shown = `${error.message}\n${error.description ?? ''}\n${JSON.stringify((error as { context?: unknown }).context ?? {})}\n${host.logsSince(logsBefore).join('\n')}`;
				assert.ok(!shown.includes(TRIGGER_SECRET), `the secret is not shown: ${shown}`);
			} finally {
				await service.close();
			}
		});
	});
}

async function checkFault(sandbox: Sandbox, op: Operation, fault: FaultCase): Promise<void> {
	// The SMS service answers a service error per message ("Error - 999"): a refusal, not a lost answer.
	const uncertain =
		fault.uncertain === true && !(fault.fault.kind === 'serviceError' && op.server === 'sms');
	const parameters = {
		...op.parameters(sandbox),
		...(op.timeout
			? op.timeout(fault.fault.kind === 'hang' || fault.fault.kind === 'slow' ? 1 : 30)
			: {}),
	};
	const source = `fault ${fault.name} on ${op.service}`;

	for (const continueOnFail of [false, true]) {
		sandbox.control.reset();
		sandbox.control.injectFaults({ ...fault.fault, server: op.server, operation: op.service });
		const result = await runOne(source, sandbox, op.type, parameters, { continueOnFail });
		const tag = `${continueOnFail ? 'with' : 'without'} Continue On Fail`;

		assert.equal(
			requestsTo(sandbox, op).length,
			1,
			`${tag}: exactly one ${op.service} request (no retry)`,
		);
		assert.ok(result.ms < 10_000, `${tag}: answered in ${result.ms} ms`);

		if (fault.fault.kind === 'wrongLength' && op.wrongLength !== 'error') {
			// The answer still reads as a valid one: the node reports what the service said.
			assert.equal(result.error, undefined, `${tag}: ${result.error?.message}`);
			const items = outputOf(result);
			if (op.wrongLength === 'fewerItems')
				assert.equal(items.length, op.itemsOfOneRun! - 1, `${tag}: the items the service answered`);
			assert.ok(
				items.every((item) => item.json.error === undefined),
				`${tag}: no error item`,
			);
			continue;
		}
		const expect = fault.fault.kind === 'wrongLength' ? wrongLengthExpect(op) : fault.expect;
		if (!expect) {
			assert.equal(result.error, undefined, `${tag}: ${result.error?.message}`);
			const items = outputOf(result);
			assert.ok(items.length > 0, `${tag}: output`);
			assert.ok(
				items.every((item) => item.json.error === undefined),
				`${tag}: no error item`,
			);
			continue;
		}

		if (!continueOnFail) {
			const error = failureOf(result);
			const words = `${error.message}\n${error.description ?? ''}`;
			assert.match(
				error.message,
				namesOperation(op),
				`${tag}: the error names ${op.service}: ${error.message}`,
			);
			assert.match(words, expect, `${tag}: the error says what happened: ${words}`);
			if (op.sideEffect && uncertain)
				assert.match(
					words,
					MAY_HAVE_HAPPENED,
					`${tag}: says the change may have been made: ${words}`,
				);
			assert.equal(outputOf(result).length, 0, `${tag}: no output item beside the error`);
			continue;
		}

		assert.equal(
			result.error,
			undefined,
			`${tag}: the workflow goes on (${result.error?.message})`,
		);
		const items = outputOf(result);
		assert.ok(items.length > 0, `${tag}: error items`);
		for (const item of items) {
			const words = `${String(item.json.error)}\n${String(item.json.errorDescription ?? '')}`;
			assert.match(
				String(item.json.error),
				namesOperation(op),
				`${tag}: the error item names ${op.service}: ${words}`,
			);
			assert.match(words, expect, `${tag}: the error item says what happened: ${words}`);
			if (op.sideEffect && uncertain)
				assert.match(words, MAY_HAVE_HAPPENED, `${tag}: says the change may have been made`);
			assert.deepEqual(item.pairedItem, { item: 0 }, `${tag}: paired to its input item`);
		}
	}
}
