/**
 * Every field the trigger outputs is reachable by expression in the next node: a workflow maps
 * each of them (the untouched query and body too, at any depth) with `{{ $json[…] }}` into a node
 * after the trigger, and n8n's expression engine (WorkflowExecute, n8n-workflow's sandboxing,
 * which refuses names such as `caller`) gives back every value.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { MAP_TYPE, TriggerHost, type FakeRequest } from '../../../../dev/harness/trigger.mts';

/** Every leaf of a value: its expression path and its value. */
function leaves(value: unknown, path: string): Array<[string, unknown]> {
	if (value !== null && typeof value === 'object') {
		const entries = Array.isArray(value)
			? value.map((entry, index): [string, unknown] => [`[${index}]`, entry])
			: Object.entries(value).map(([key, entry]): [string, unknown] => [
					`[${JSON.stringify(key)}]`,
					entry,
				]);
		return entries.flatMap(([step, entry]) => leaves(entry, `${path}${step}`));
	}
	return [[path, value]];
}

const CALLBACKS: Array<[string, FakeRequest]> = [
	[
		'a call end with hostile keys',
		{
			method: 'POST',
			body: JSON.parse(
				'{"event":"call.end","call_uuid":"1795308075.21","cdr_ddi":"0722000100","caller":"0501234567","user_phone":"0550599267","call_duration":"95","call_status":"ANSWER","record_file_exists":"1","constructor":{"prototype":"p","arguments":["a"]},"__proto__":{"callee":"c"},"nested":{"deeper":{"mainModule":"m"}}}',
			) as IDataObject,
			query: { binding: 'b', ok: 'yes' },
		},
	],
	[
		'an integrator-style call start (GET)',
		{
			method: 'GET',
			query: {
				UUID: '77.1',
				DDI: '0722000101',
				CLI: '0541234567',
				DEST: '0550599267',
				CALLSTATUS: 'STARTED',
			},
		},
	],
	[
		'an SMS delivery status',
		{
			method: 'POST',
			body: {
				message_id: '91',
				dest: '0541112222',
				sender: 'Shop24',
				status: 'DELIVERED',
				status_time: '2026-01-01 10:00:00',
			},
		},
	],
	[
		'an unreadable body',
		{
			method: 'POST',
			body: {},
			rawBody: 'garbage <<not a payload>>',
			headers: { 'content-type': 'text/plain' },
		},
	],
];

describe('Virtual Number Trigger → every output field is reachable by expression in the next node', () => {
	let host: TriggerHost;
	const credentials = { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } };
	const parameters = { events: ['callStarted', 'callEnded', 'smsDelivery'] };
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	for (const [name, request] of CALLBACKS) {
		test(name, async () => {
			const reference = await host
				.add({ parameters, credentials })
				.receive(request, { execute: false });
			const item = JSON.parse(JSON.stringify(reference.items[0].json)) as IDataObject;
			const paths = leaves(item, '$json').filter(
				([path]) => !path.startsWith('$json["receivedAt"]'),
			);
			assert.ok(paths.length >= 3);
			const values = Object.fromEntries(
				paths.map(([path], index) => [`v${index}`, `={{ ${path} }}`]),
			);
			const t = host.add({
				parameters,
				credentials,
				downstream: [{ name: 'Map', type: MAP_TYPE, parameters: { values } }],
			});
			const outcome = await t.receive(request);
			assert.equal(outcome.error, undefined, String((outcome.error as Error | undefined)?.message));
			const mapped = outcome.runData.Map?.[0]?.json;
			assert.ok(mapped, 'the next node ran');
			paths.forEach(([path, value], index) =>
				assert.deepEqual(mapped[`v${index}`], value, `${path} by expression`),
			);
		});
	}

	test("the check has teeth: n8n's expression engine refuses a key such as caller", async () => {
		const reference = host.add({ parameters, credentials });
		const workflow = new Workflow({
			id: 'w',
			nodes: [reference.node],
			connections: {},
			active: false,
			nodeTypes: {
				getByName: () => reference.nodeType,
				getByNameAndVersion: () => reference.nodeType,
				getKnownTypes: () => ({}),
			},
		});
		const evaluate = (expression: string) =>
			workflow.expression.getParameterValue(
				expression,
				null,
				0,
				0,
				reference.node.name,
				[{ json: { caller: 'x', caller_: 'y' } }],
				'manual',
				{},
			);
		assert.throws(
			() => evaluate('={{ $json.caller }}'),
			/Cannot access "caller" due to security concerns/,
		);
		assert.throws(
			() => evaluate('={{ $json["caller"] }}'),
			/Cannot access "caller" due to security concerns/,
		);
		assert.equal(evaluate('={{ $json.caller_ }}'), 'y');
	});
});
