/**
 * Virtual Number → Call → Route Incoming Call, after a Virtual Number Trigger whose Respond With is
 * "Using a 'Route Incoming Call' Node": n8n's responseMode becomes responseNode, the node answers
 * through n8n's sendResponse from inside the run, and the trigger's guard still checks what goes
 * out (Allowed Destinations, the Deadline, a failed run, a run that ends without the node). The
 * harness answers as n8n 2.40's responseNode path does (setupResponseNodePromise, then the request
 * handler's res.status / res.setHeaders / res.send); the sandbox records what the answer routed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { PACKAGE, loadPackage } from '../../../../../dev/harness/engine.mts';
import { hostPerFile, sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import {
	MAP_TYPE,
	TriggerHost,
	type TriggerInstance,
	type TriggerOptions,
} from '../../../../../dev/harness/trigger.mts';
import { failure, jsons, vnTest } from '../../vnRun.mts';
import {
	call,
	routeVipAndOther,
	logged as loggedSince,
	settled,
} from '../../../VirtualNumberTrigger/callback/routeSetup.mts';

const ROUTE = {
	name: 'Route Incoming Call',
	type: `${PACKAGE}.virtualNumber`,
	typeVersion: 1.2,
	parameters: {
		resource: 'call',
		operation: 'routeIncomingCall',
		destination: '={{ $json.destination }}',
	},
};
const lookUp = (values: IDataObject | string, delayMs = 0) => ({
	name: 'Look Up',
	type: MAP_TYPE,
	parameters: { values: values as string, delayMs },
});
/** A node after the answer: the run goes on after the caller was answered. */
const AFTER = lookUp({ logged: true }, 700);

describe('Route Incoming Call after the Virtual Number Trigger (Respond With the node)', () => {
	let host: TriggerHost;
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	type Downstream = NonNullable<TriggerOptions['downstream']>[number];
	function trigger(
		downstream: Downstream[],
		options: IDataObject = {},
		events = ['callStarted', 'callEnded'],
	): TriggerInstance {
		return host.add({
			parameters: { events, options: { respondWith: 'routeNode', ...options } },
			credentials: { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } },
			downstream: downstream.map((node, index) => ({ ...node, name: `${node.name} ${index}` })),
		});
	}
	const logged = (from: number, words: string) => loggedSince(host, from, words);

	test('the node answers from inside the run: the destination as plain text, before the run ends', async () => {
		const t = trigger([lookUp({ destination: '+972 50-765-4321' }), ROUTE, AFTER]);
		const answer = await call(t);
		assert.deepEqual([answer.status, answer.text], [200, '972507654321']);
		assert.match(String(answer.type), /^text\/plain/);
		assert.ok(answer.ms < 600, `answered before the last node's 700 ms (${answer.ms} ms)`);
		const outcome = await settled(t);
		const routed = outcome.runData['Route Incoming Call 1'];
		assert.equal(routed.length, 1);
		assert.equal(routed[0].json.routedTo, '972507654321', 'what was answered');
		assert.equal(routed[0].json.destination, '+972 50-765-4321', 'the input item passed on');
		assert.deepEqual(routed[0].pairedItem, { item: 0 });
		assert.equal(outcome.runData['Look Up 2'][0].json.logged, true, 'the run went on');
	});

	test("an empty Destination answers the number's own routing, without a log line", async () => {
		const from = host.logCount;
		const answer = await call(trigger([lookUp({ destination: '' }), ROUTE]));
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(!(await logged(from, "left to the number's own routing")));
	});

	test('Allowed Destinations refuses a premium number the node answered: empty, and a log line', async () => {
		const from = host.logCount;
		const t = trigger([lookUp({ destination: '1-900-72-1234' }), ROUTE], {
			allowedDestinations: 'israel',
		});
		const answer = await call(t);
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(await logged(from, 'refused 1900721234 from the Route Incoming Call node'));
	});

	test('past the deadline: an empty answer at the deadline; the late answer is dropped', async () => {
		const from = host.logCount;
		const t = trigger([lookUp({ destination: '0529998888' }, 1500), ROUTE], {
			routeDeadlineSec: 0.5,
		});
		const answer = await call(t);
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(answer.ms >= 450 && answer.ms < 1400, `answered at the deadline (${answer.ms} ms)`);
		assert.ok(await logged(from, 'no destination within 0.5 s'));
		const outcome = await settled(t);
		assert.equal(outcome.runData['Route Incoming Call 1'][0].json.routedTo, '0529998888');
	});

	test('the run ends without the node answering: the empty answer at once, not at the deadline', async () => {
		const from = host.logCount;
		const t = trigger([lookUp({ destination: '0529998888' }, 300)], { routeDeadlineSec: 5 });
		const answer = await call(t);
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(answer.ms >= 250 && answer.ms < 2000, `at the run's end (${answer.ms} ms)`);
		assert.ok(await logged(from, 'the run ended without a Route Incoming Call node answering'));
	});

	test('a run that fails before the node: an empty 200 and a log line', async () => {
		const from = host.logCount;
		const t = trigger([lookUp('={{ $("No Such Node").item.json }}'), ROUTE]);
		const answer = await call(t);
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(await logged(from, 'the workflow failed'));
	});

	test('a Destination that is no phone number fails the node, naming the field; the caller gets the empty answer', async () => {
		const t = trigger([lookUp({ destination: 'the sales team' }), ROUTE]);
		const answer = await call(t);
		assert.deepEqual([answer.status, answer.text], [200, '']);
		const error = (await settled(t)).error as Error;
		assert.match(error.message, /^Destination: must be a phone number/);
	});

	test("Call Ended: answered empty at once; the node's later answer is dropped", async () => {
		const t = trigger([lookUp({ destination: '0529998888' }, 300), ROUTE]);
		const answer = await call(t, { event: 'hangup', call_uuid: 'c-1', call_status: 'ANSWER' });
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(answer.ms < 250, `not waiting for the run (${answer.ms} ms)`);
		const outcome = await settled(t);
		assert.equal(outcome.items[0].json.event, 'call.ended');
		assert.equal(outcome.responseBody, '', 'nothing written after the answer');
		assert.equal(outcome.responseError, undefined, 'n8n does not fail sending on a sent response');
	});

	test('after a trigger that answers itself (Respond With a destination): the node fails, saying how to fix it', async () => {
		const t = trigger([lookUp({ destination: '0529998888' }), ROUTE], {
			respondWith: 'destination',
		});
		await call(t);
		const error = (await settled(t)).error as Error & { description?: string };
		assert.match(error.message, /does not wait for this answer/);
		assert.match(String(error.description), /Respond With to "Using a 'Route Incoming Call' Node"/);
	});
});

describe('Route Incoming Call outside a Virtual Number Trigger', () => {
	const { run } = vnTest();

	test('run without the trigger (by hand, or after another trigger): a clear error, nothing answered', async () => {
		const result = await run({
			resource: 'call',
			operation: 'routeIncomingCall',
			destination: '0529998888',
		});
		const error = failure(result) as Error & { description?: string };
		assert.equal(error.message, 'No Virtual Number Trigger before this node');
		assert.match(String(error.description), /Respond With/);
	});

	test('Continue On Fail: one error item per input item, paired, saying what to set up', async () => {
		const result = await run(
			{ resource: 'call', operation: 'routeIncomingCall', destination: '0529998888' },
			{ continueOnFail: true, input: [{ json: { a: 1 } }, { json: { a: 2 } }] },
		);
		const out = jsons(result);
		assert.deepEqual(
			out.map((json) => json.error),
			['No Virtual Number Trigger before this node', 'No Virtual Number Trigger before this node'],
		);
	});

	test('the AI tool variant does not offer it', async () => {
		const loader = await loadPackage();
		const { properties } = (
			loader.getNode('virtualNumber').type as { description: { properties: INodeProperties[] } }
		).description;
		const operation = properties.find(
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('call'),
		)!;
		const option = (operation.options as Array<{ value: string; displayOptions?: object }>).find(
			({ value }) => value === 'routeIncomingCall',
		);
		assert.deepEqual(option?.displayOptions, { hide: { '@tool': [true] } });
		assert.ok(
			!properties.some(
				(p) =>
					p.displayOptions?.show?.['@tool'] !== undefined &&
					p.displayOptions?.show?.operation?.includes('routeIncomingCall'),
			),
			'no tool description field for it',
		);
	});
});

describe('Route Incoming Call against the sandbox: the service routes the call to the answered number', () => {
	const sandbox = sandboxPerFile();
	const host = hostPerFile();

	test('VIP caller routed to the direct line, others to the number’s own routing', async () => {
		await routeVipAndOther(host, sandbox, 'routeNode', [
			{
				...ROUTE,
				parameters: {
					...ROUTE.parameters,
					destination:
						'={{ $json.callerNumber.replace(/\\D/g, "") === "0547770001" ? "050-999-8888" : "" }}',
				},
			},
		]);
	});
});
