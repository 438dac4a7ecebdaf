/**
 * Call Ended: Unanswered Calls Only starts the workflow for the calls nobody answered (the service's
 * call_status values), and every call item carries the caller's conversationKey.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { selectedNumbers } from '../../../../../dev/harness/trigger.mts';
import { callbackSetup } from '../callbackSetup.mts';

describe('Virtual Number Trigger → Call Ended', () => {
	const { sandbox, numbers, activated } = callbackSetup();

	test('Unanswered Calls Only: No Answer and Busy start it, an answered call does not; without it every call does', async () => {
		const [first, second] = numbers();
		const missed = await activated({
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: selectedNumbers([first]),
			options: { unansweredOnly: true },
		});
		const every = await activated(
			{ events: ['callEnded'], numbers: 'selected', virtualnums: selectedNumbers([second]) },
			1.2,
		);
		for (const virtualnum of [first, second])
			for (const status of ['ANSWER', 'NOANSWER', 'BUSY'] as const)
				await sandbox.control.placeCall({ virtualnum, caller: '+972-54-111-0010', status });
		assert.deepEqual(
			missed.executions.map((run) => run[0].json.callStatus),
			['NOANSWER', 'BUSY'],
		);
		assert.equal(every.executions.length, 3);
		assert.ok(
			every.executions.every((run) => run[0].json.conversationKey === '972541110010'),
			"version 1.2: each call item carries the caller's phone identity",
		);
		assert.equal(
			'conversationKey' in missed.executions[0][0].json,
			false,
			'version 1 keeps its shape',
		);
	});

	test('the statuses as the templates write them: lower case, spaced; a call without a status is not known to be missed', async () => {
		const [first] = numbers();
		const missed = await activated({
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: selectedNumbers([first]),
			options: { unansweredOnly: true },
		});
		const end = (status?: string) =>
			missed.receive({
				method: 'GET',
				query: {
					UUID: `c-${status ?? 'none'}`,
					DDI: first,
					CLI: '0541110010',
					event: 'hangup',
					...(status === undefined ? {} : { CALLSTATUS: status }),
				},
			});
		const started = async (status?: string) => (await end(status)).started;
		assert.equal(await started('no answer'), true);
		assert.equal(await started('Caller Cancel'), true);
		assert.equal(await started('OUT OF TIME'), true);
		assert.equal(await started('answer'), false);
		assert.equal(await started('Black List'), false);
		assert.equal(await started('NOT ACTIVE'), false);
		assert.equal(await started(), false);
	});
});
