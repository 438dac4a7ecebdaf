/**
 * What Send keeps between the tries of Retry On Fail (nodes/BulkSms/actions/message/tries.ts): in
 * the node's context of the execution, per run of the node, the run itself never saved as data.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	earlierRun,
	endTry,
	keepRun,
	refuseLostRun,
} from '../../../../../nodes/BulkSms/actions/message/tries.ts';
import type { SendRun } from '../../../../../nodes/BulkSms/actions/message/batches.ts';
import { retryOnFailTries } from '../../../../../nodes/shared/n8nCompat.ts';

/** A context as n8n gives each try: the execution's node context (shared by the tries), the run index. */
function contextOf(contextData: IDataObject, runIndex: number, maxTries?: number) {
	return {
		getContext: () => contextData,
		getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
		getNode: () => ({ name: 'Send', retryOnFail: true, maxTries }),
	} as unknown as IExecuteFunctions;
}
const runOf = (attempt: number) =>
	({ items: [], entries: [], batches: [], attempt }) as unknown as SendRun;

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
