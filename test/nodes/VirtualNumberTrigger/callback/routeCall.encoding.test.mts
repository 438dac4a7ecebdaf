/**
 * Every answer of the trigger readable by any client: a call start (and the callbacks after it)
 * sent with `Accept-Encoding: gzip` or `br`, as Python requests, Node fetch and many PHP curl
 * set-ups send it, gets its answer in plain text, or compressed with its Content-Encoding, for
 * each Respond With. The harness answers behind n8n's own compression middleware (the
 * `compression` package of n8n 2.40.7's install), which compressed the Route Incoming Call
 * node's answer without a Content-Encoding before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { PACKAGE } from '../../../../dev/harness/engine.mts';
import { n8nCompression } from '../../../../dev/harness/n8nHttp.mts';
import { MAP_TYPE, TriggerHost, type TriggerInstance } from '../../../../dev/harness/trigger.mts';
import { START, callAccepting } from './routeSetup.mts';

const ROUTE = {
	name: 'Route Incoming Call',
	type: `${PACKAGE}.virtualNumber`,
	typeVersion: 1.3,
	parameters: { resource: 'call', operation: 'routeIncomingCall', destination: '0529998888' },
};
const LOOK_UP = {
	name: 'Look Up',
	type: MAP_TYPE,
	parameters: { values: { destination: '0529998888' } },
};

/** Each Respond With, the nodes after the trigger, and the answer a call start gets. */
const WAYS: Array<[string, IDataObject, Array<typeof LOOK_UP | typeof ROUTE>, string]> = [
	['Nothing', { respondWith: 'nothing' }, [LOOK_UP], ''],
	['A Destination From the Workflow', { respondWith: 'destination' }, [LOOK_UP], '0529998888'],
	[
		"Using a 'Route Incoming Call' Node",
		{ respondWith: 'routeNode' },
		[LOOK_UP, ROUTE],
		'0529998888',
	],
	[
		'Using Routing Rules',
		{
			respondWith: 'rules',
			routingRules: { rule: [{ callers: '0501234567', destination: '0529998888' }] },
		},
		[LOOK_UP],
		'0529998888',
	],
];

const ENCODINGS = ['gzip', 'br', 'gzip, deflate, br'];
const compression = n8nCompression();

describe('Route Call → a client that asks for compression reads every answer', () => {
	let host: TriggerHost;
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	function trigger(
		options: IDataObject,
		downstream: Array<typeof LOOK_UP | typeof ROUTE>,
	): TriggerInstance {
		return host.add({
			parameters: { events: ['callStarted', 'callEnded'], options },
			credentials: { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } },
			downstream,
		});
	}

	test("the harness compresses as n8n's server does: an answer of unknown length comes gzipped, with its header", async (t) => {
		if ('reason' in compression) return t.skip(compression.reason);
		const unknown = { webhookUrl: `${host.webhookBaseUrl}/no-such-id/webhook` } as TriggerInstance;
		const answer = await callAccepting(unknown, 'gzip');
		assert.equal(answer.status, 404);
		assert.equal(answer.encoding, 'gzip', "n8n's 404 goes out compressed, so compression is on");
		assert.match(answer.text, /not registered/);
	});

	for (const [way, options, downstream, expected] of WAYS)
		for (const encoding of ENCODINGS)
			test(`${way}, Accept-Encoding ${encoding}: the call start's answer reads "${expected}"`, async (t) => {
				if ('reason' in compression) return t.skip(compression.reason);
				const instance = trigger(options, downstream);
				const answer = await callAccepting(instance, encoding);
				assert.deepEqual([answer.status, answer.text], [200, expected]);
				if (way !== 'Nothing') {
					assert.equal(answer.encoding, undefined, 'a short answer goes out as it is');
					assert.match(String(answer.type), /^text\/plain/);
				}
				const ended = await callAccepting(instance, encoding, { ...START, event: 'hangup' });
				assert.deepEqual([ended.status, ended.text], [200, ''], 'a call end: empty');
			});
});
