/**
 * One call vocabulary from every callback template (version 1.1): the lower-case template's
 * formatted numbers (`050-1000090`) come out as digits, as the contract's callbacks and the call
 * records give them, and `recordingExists` is always true or false. Version 1 keeps them as sent.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { selectedNumbers } from '../../../../dev/harness/trigger.mts';
import { callbackSetup } from './callbackSetup.mts';

describe('Virtual Number Trigger → one call vocabulary from every callback template', () => {
	const { sandbox, numbers, activated } = callbackSetup();

	/** The items of a call answered and one not, placed with the given template. */
	async function calls(template: 'lower' | 'json', typeVersion: number): Promise<IDataObject[]> {
		sandbox.control.configure({ callbackStyle: template });
		const [number] = numbers();
		const parameters = { events: ['callEnded'], numbers: 'selected' };
		const t = await activated(
			{ ...parameters, virtualnums: selectedNumbers([number]) },
			typeVersion,
		);
		await sandbox.control.placeCall({ virtualnum: number, caller: '0501000090' });
		await sandbox.control.placeCall({ virtualnum: number, caller: '0501000091', answered: false });
		await sandbox.control.settle();
		return t.outcomes.flatMap((outcome) => outcome.items.map((item) => item.json));
	}

	test('version 1.1, the lower-case template: numbers as digits, recordingExists true or false', async () => {
		const [answered, missed] = await calls('lower', 1.1);
		assert.equal(answered.callerNumber, '0501000090');
		assert.match(String(answered.virtualNumber), /^\d+$/);
		assert.match(String(answered.destinationPhone), /^\d+$/);
		assert.equal(answered.callerNumberUnformatted, '0501000090');
		assert.equal(answered.recordingExists, true);
		assert.equal(missed.callerNumber, '0501000091');
		assert.equal(missed.recordingExists, false);
		assert.equal((answered.query as IDataObject).cli, '050-1000090', 'as sent, in the query');
	});

	test('version 1.1, the contract template: the same fields and values', async () => {
		const [answered, missed] = await calls('json', 1.1);
		assert.equal(answered.callerNumber, '0501000090');
		assert.equal(answered.recordingExists, true);
		assert.equal(missed.recordingExists, false);
	});

	test('version 1 keeps what saved workflows got: the formatted numbers, null when not said', async () => {
		const [answered, missed] = await calls('lower', 1);
		assert.equal(answered.callerNumber, '050-1000090');
		assert.equal(missed.recordingExists, null);
	});
});
