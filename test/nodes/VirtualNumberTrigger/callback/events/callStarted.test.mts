/** Call Started: a call's start, once per call when "Call Started Once per Call" is on. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { selectedNumbers } from '../../../../../dev/harness/trigger.mts';
import { callbackSetup } from '../callbackSetup.mts';

describe('Virtual Number Trigger → Call Started', () => {
	const { sandbox, numbers, activated } = callbackSetup();

	test('the start repeated for one call: every copy starts the workflow, unless "Call Started Once per Call" is on', async () => {
		sandbox.control.configure({ callbackStyle: 'upper', callStartRepeats: 3 });
		const [first, second] = numbers();
		const every = await activated({
			events: ['callStarted'],
			numbers: 'selected',
			virtualnums: selectedNumbers([first]),
		});
		const once = await activated({
			events: ['callStarted'],
			numbers: 'selected',
			virtualnums: selectedNumbers([second]),
			options: { onceCallStarted: true },
		});
		await sandbox.control.placeCall({ virtualnum: first, caller: '0541234567' });
		const { call, callbacks } = await sandbox.control.placeCall({
			virtualnum: second,
			caller: '0541234567',
		});
		assert.equal(callbacks.length, 3);
		assert.ok(
			callbacks.every((c) => c.responseStatus === 200 && c.responseBody === ''),
			'repeats are answered 200 like any callback',
		);
		assert.equal(every.executions.length, 3);
		assert.equal(once.executions.length, 1);
		assert.equal(once.executions[0][0].json.callId, call.cdr_uniqueid);
		// what n8n saved is what another process (queue mode: another webhook processor) reads
		const elsewhere = once.inAnotherProcess();
		const repeat = await elsewhere.receive({
			method: 'GET',
			query: { UUID: call.cdr_uniqueid, DDI: second, CALLSTATUS: 'STARTED' },
		});
		assert.equal(repeat.started, false, 'the repeat is recognised from the saved static data');
		const next = await elsewhere.receive({
			method: 'GET',
			query: { UUID: `${call.cdr_uniqueid}9`, DDI: second, CALLSTATUS: 'STARTED' },
		});
		assert.equal(next.started, true, 'another call starts it');
	});
});
