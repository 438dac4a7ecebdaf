/** The node as n8n sees it: its webhooks, credential test, number search, trigger panel and activation message. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { selectedNumbers } from '../../../dev/harness/trigger.mts';
import type { TriggerInstance } from '../../../dev/harness/trigger.mts';
import { SMS_URL_PATH } from '../../../nodes/VirtualNumberTrigger/secret.ts';
import { CALLS, registrationSetup } from './lifecycle/registrationSetup.mts';

describe('Virtual Number Trigger → the node', () => {
	const { sandbox, numbers, trigger, updates } = registrationSetup();

	// Both entries answer at once and empty, unless Call Started's Respond With asks for a destination:
	// from the last node (lastNode) or from a Route Incoming Call node (responseNode).
	const RESPONDS = (value: string) =>
		`$parameter["events"].includes("callStarted") && $parameter["options"]["respondWith"] === "${value}"`;
	const MODE = `={{ ${RESPONDS('destination')} ? "lastNode" : ${RESPONDS('routeNode')} ? "responseNode" : "onReceived" }}`;
	const DATA = `={{ ${RESPONDS('destination')} ? "firstEntryJson" : "noData" }}`;
	test('the GET entry is named setup: n8n runs checkExists and create once per activation, delete once per deactivation', async () => {
		const [a] = numbers();
		const t = trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a]) });
		assert.deepEqual(
			t
				.webhookDescriptions()
				.map((w) => [w.name, w.httpMethod, w.path, w.responseMode, w.responseData]),
			[
				['default', 'POST', 'webhook', MODE, DATA],
				['setup', 'GET', 'webhook', MODE, DATA],
				['setup', 'POST', SMS_URL_PATH.template, 'onReceived', 'noData'],
				['setup', 'GET', SMS_URL_PATH.template, 'onReceived', 'noData'],
			],
		);
		assert.deepEqual(Object.keys(t.nodeType.webhookMethods ?? {}), ['default']);
		sandbox.control.clearRequests();
		await t.activate();
		// one checkExists read, one create read (+ its update) and the re-read that checks the update
		// took; no second round for the GET entry
		assert.equal(sandbox.control.requests({ operation: 'get_virtualnum' }).length, 3);
		assert.equal(updates().length, 1);
		sandbox.control.clearRequests();
		await t.deactivate();
		assert.equal(sandbox.control.requests({ operation: 'get_virtualnum' }).length, 1);
		assert.equal(updates().length, 1);
	});

	test('the node: credential test, number search, trigger panel and activation message', () => {
		const t: TriggerInstance = trigger({ events: CALLS });
		const description = t.nodeType.description;
		assert.deepEqual(description.credentials, [
			{ name: 'virtualnumApi', required: true, testedBy: 'virtualnumApiTest' },
			{
				name: 'virtualnumN8nApi',
				required: true,
				testedBy: 'virtualnumN8nApiTest',
				displayOptions: {
					show: { events: ['smsReceived'], dataTables: ['waitingRuns', 'optedOut'] },
				},
			},
		]);
		assert.equal(typeof t.nodeType.methods?.credentialTest?.virtualnumApiTest, 'function');
		assert.equal(typeof t.nodeType.methods?.credentialTest?.virtualnumN8nApiTest, 'function');
		assert.equal(typeof t.nodeType.methods?.listSearch?.searchVirtualnums, 'function');
		assert.deepEqual(description.inputs, []);
		// One instruction for delivery reports: the URL ending in /sms/<token>, never the Secret itself.
		const instruction =
			/SMS delivery status(?:es)? registers? nothing: set Options → Secret, choose SMS Delivery Status, and paste the Production URL the panel then shows \(it ends in \/sms\/ and a token made from the Secret, never the Secret itself\) into the Bulk SMS node's Delivery Report URL/i;
		assert.match(
			String(description.activationMessage),
			/previous callback URL is kept and put back/,
		);
		const panel = description.triggerPanel as {
			executionsHelp: { active: string; inactive: string };
			activationHint: string;
		};
		for (const text of [
			String(description.activationMessage),
			panel.executionsHelp.inactive.replace(/<\/?b>/g, ''),
			panel.executionsHelp.active.replace(/<\/?b>/g, ''),
		]) {
			assert.match(text, instruction);
			assert.doesNotMatch(
				text,
				/\?secret=/,
				'no Secret pasted into a URL that travels to the SMS provider',
			);
		}
		assert.match(panel.executionsHelp.inactive, /Numbers an active workflow uses are refused/);
		assert.match(
			panel.executionsHelp.active,
			/Listening for a test event is refused on the numbers it uses/,
		);
	});
});
