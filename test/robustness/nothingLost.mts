/**
 * Nothing lost: in every partial failure, every input item is accounted for: a success item, an
 * error item (with Continue On Fail), or named in the error (without it).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import type { FaultSpec, Sandbox } from '../../dev/sandbox/index.mts';
import { TriggerHost, startProxy } from '../../dev/harness/trigger.mts';
import {
	TRIGGER_SECRET,
	collectError,
	failureOf,
	listedNumbers,
	outputOf,
	rl,
	runOne,
} from './support.mts';

/** The input items (by index) that have an output item paired to them. */
function pairedInputs(items: ReturnType<typeof outputOf>): Set<number> {
	const paired = new Set<number>();
	for (const item of items) {
		const pairs = Array.isArray(item.pairedItem) ? item.pairedItem : [item.pairedItem];
		for (const pair of pairs) if (pair && typeof pair === 'object') paired.add(pair.item);
	}
	return paired;
}

/** The input items an SMS send error names in its data (sent, failed, in the failed batch, not sent). */
function namedInSmsError(error: { context?: IDataObject }): Set<number> {
	const data = (error.context?.data ?? {}) as Record<
		string,
		Array<{ inputItem: number }> | undefined
	>;
	const named = new Set<number>();
	for (const key of Object.keys(data)) {
		const list = data[key];
		if (Array.isArray(list))
			for (const entry of list)
				if (typeof entry?.inputItem === 'number') named.add(entry.inputItem);
	}
	return named;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

export function nothingLostSuite(sandbox: () => Sandbox): void {
	describe('Nothing lost: every input item is accounted for in every partial failure', () => {
		beforeEach(() => sandbox().control.reset());

		describe('Bulk SMS → Send, 6 items in 3 batches of 2, the 2nd batch fails', () => {
			const input = range(6).map((i) => ({ to: `05012345${String(10 + i)}` }));
			const parameters = {
				resource: 'message',
				operation: 'send',
				// An item's own sender, when it has one (a sender the service refuses, below).
				sender: { __rl: true, mode: 'id', value: `={{ $json.sender ?? 'VirtualNum' }}` },
				to: '={{ $json.to }}',
				message: 'Batch check',
				options: { batchSize: 2 },
			};
			const cases: Array<{
				name: string;
				fault?: FaultSpec;
				prepare?: (items: IDataObject[]) => IDataObject[];
			}> = [
				{ name: 'HTTP 500', fault: { kind: 'http500' } },
				{ name: 'a cut-off answer', fault: { kind: 'truncatedJson' } },
				{ name: 'one result too few', fault: { kind: 'wrongLength' } },
				{ name: 'a 401', fault: { kind: 'unauthorized', text: 'Token Expired' } },
				// The service refuses one message of the 2nd batch (a sender the account does not have): a per-message failure.
				{
					name: 'one recipient refused by the service',
					prepare: (items) =>
						items.map((item, i) => (i === 3 ? { ...item, sender: 'NotOurs' } : item)),
				},
			];
			for (const scenario of cases) {
				test(`${scenario.name}: named in the error, or error items beside the sent ones`, async () => {
					const proxy = await startProxy(sandbox().smsUrl, (request) => {
						if (
							scenario.fault &&
							request.path.endsWith('ws_json_bulk.php') &&
							proxy.requests.length === 2
						) {
							sandbox().control.injectFaults({
								...scenario.fault,
								server: 'sms',
								operation: 'send_sms',
							});
						}
					});
					try {
						const items = scenario.prepare ? scenario.prepare(input) : input;
						for (const continueOnFail of [false, true]) {
							sandbox().control.reset();
							proxy.requests.length = 0;
							const result = await runOne(
								`nothing lost: send, ${scenario.name}`,
								sandbox(),
								'bulkSms',
								parameters,
								{
									continueOnFail,
									input: items,
									base: { sms: proxy.url },
								},
							);
							if (!continueOnFail) {
								const error = failureOf(result);
								assert.equal(
									proxy.requests.length,
									2,
									'the 3rd batch is not sent after a failed one',
								);
								assert.deepEqual(
									[...namedInSmsError(error)].sort(),
									range(6),
									`every item is named in the error's data: ${JSON.stringify(error.context?.data)}`,
								);
								// And in the words the user reads.
								for (const i of range(6))
									assert.match(
										String(error.description),
										new RegExp(`item[s]? [^.]*\\b${i}\\b`),
										`item ${i} in the description`,
									);
							} else {
								assert.equal(result.error, undefined);
								assert.equal(
									proxy.requests.length,
									3,
									'with Continue On Fail the other batches go on',
								);
								const out = outputOf(result);
								assert.deepEqual(
									[...pairedInputs(out)].sort(),
									range(6),
									'every input item has an output item',
								);
								const failedItems = new Set(
									out
										.filter((item) => item.json.error !== undefined)
										.map((item) => (item.pairedItem as { item: number }).item),
								);
								const expectedFailed = scenario.fault ? [2, 3] : [3];
								assert.deepEqual(
									[...failedItems].sort(),
									expectedFailed,
									'the failed ones are error items',
								);
								for (const i of [0, 1, 4, 5]) {
									assert.ok(
										out.some(
											(item) =>
												(item.pairedItem as { item: number }).item === i &&
												item.json.message_id !== undefined,
										),
										`item ${i} sent`,
									);
								}
							}
						}
					} finally {
						await proxy.close();
					}
				});
			}
		});

		describe('Virtual Number → Click to Call, 4 items, the 3rd fails', () => {
			const parameters = {
				resource: 'call',
				operation: 'clickToCall',
				virtualnum: rl('0722000100'),
				destination: '={{ $json.to }}',
			};
			const cases = [
				// Only 5 digits: the service cannot place it (3015).
				{ name: 'the service refuses it', third: '12345', requestsBefore: 3 },
				// Letters: the node's own check refuses it, before its request.
				{ name: 'its input fails a check', third: '05x-1234567', requestsBefore: 2 },
			];
			for (const scenario of cases) {
				test(`${scenario.name}: error items beside the calls placed, or an error naming what ran and what did not`, async () => {
					const input = [
						{ to: '0501234567' },
						{ to: '0527654321' },
						{ to: scenario.third },
						{ to: '0541112233' },
					];
					for (const continueOnFail of [false, true]) {
						sandbox().control.reset();
						const result = await runOne(
							`nothing lost: click to call, ${scenario.name}`,
							sandbox(),
							'virtualNumber',
							parameters,
							{ continueOnFail, input },
						);
						const requests = sandbox().control.requests({ operation: 'create_virtualnum_call' });
						if (!continueOnFail) {
							const error = failureOf(result) as ReturnType<typeof failureOf> & {
								context?: IDataObject;
							};
							assert.equal(
								requests.length,
								scenario.requestsBefore,
								'item 3 is not run after item 2 failed',
							);
							assert.equal(error.context?.itemIndex, 2, 'the error is item 2');
							const description = String(error.description);
							assert.match(
								description,
								/Items? 0[–-]1 (had already run|ran)/,
								`items 0-1 named as done: ${description}`,
							);
							assert.match(
								description,
								/Item 3 did not run/,
								`item 3 named as not run: ${description}`,
							);
							const data = error.context?.data as {
								itemsDone?: Array<{ item: number; json: IDataObject[] }>;
								itemsNotRun?: number[];
							};
							assert.deepEqual(
								data?.itemsDone?.map((entry) => entry.item),
								[0, 1],
								'the output of items 0-1 is in the error data',
							);
							assert.ok(
								data.itemsDone!.every((entry) => entry.json.length > 0 && entry.json[0].call_uuid),
								'with the calls they placed',
							);
							assert.deepEqual(data?.itemsNotRun, [3]);
						} else {
							assert.equal(result.error, undefined);
							assert.equal(requests.length, scenario.requestsBefore + 1);
							const out = outputOf(result);
							assert.deepEqual([...pairedInputs(out)].sort(), [0, 1, 2, 3]);
							assert.deepEqual(
								out.map((item) => item.json.error === undefined),
								[true, true, false, true],
							);
						}
					}
				});
			}
		});

		describe('Virtual Number Trigger → registration on 3 numbers, one update fails', () => {
			let host: TriggerHost;
			before(async () => {
				host = await TriggerHost.start();
			});
			after(async () => await host.close());
			const FOREIGN = 'https://crm.example.com/hooks/calls';

			for (const fault of [
				{ kind: 'http500' },
				{ kind: 'truncatedJson' },
				{ kind: 'xml' },
				{ kind: 'serviceError', code: 4020 },
			] as FaultSpec[]) {
				test(`${fault.kind}: the activation fails naming the number, and every number is as it was`, async () => {
					const numbers = ['0722000100', '0722000101', '0722000102'];
					sandbox().control.seed({
						virtualnum: { virtualnum: numbers[1], callback_url: FOREIGN, callback_url_option: 1 },
					});
					const before = numbers.map((number) => ({ ...sandbox().control.virtualnum(number)! }));
					sandbox().control.clearRequests();
					sandbox().control.injectFaults({
						...fault,
						server: 'vn',
						operation: 'update_virtualnum',
					});
					const trigger = host.add({
						parameters: {
							events: ['callEnded'],
							numbers: 'selected',
							virtualnums: listedNumbers(numbers),
							options: { secret: TRIGGER_SECRET },
						},
						credentials: {
							virtualnumApi: { baseUrl: sandbox().vnUrl, accessToken: sandbox().tokens.vn },
						},
					});
					const error = await trigger.activate().then(
						() => undefined,
						(failure: Error & { description?: string }) => failure,
					);
					assert.ok(error, 'the activation fails');
					collectError(`nothing lost: trigger ${fault.kind}`, error);
					assert.match(
						error.message,
						/Could not register the trigger on 07220001\d\d: .*update_virtualnum/,
					);
					for (const record of before) {
						const now = sandbox().control.virtualnum(record.virtualnum)!;
						assert.deepEqual(
							{ url: now.callback_url, option: now.callback_url_option },
							{ url: record.callback_url, option: record.callback_url_option },
							`${record.virtualnum} is back as it was (${error.description})`,
						);
					}
					assert.doesNotMatch(
						JSON.stringify(trigger.savedStaticData()),
						/registrations/,
						'nothing left to restore',
					);
				});
			}
		});
	});
}
