// Bulk SMS → Send on every phone spelling of the field-data corpus, through n8n's engine against
// the sandbox: what the SMS service receives as `dest` for each, from the To field and from
// Recipients From: Input Fields, As Typed and International.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { runWorkflow } from '../../dev/harness/engine.mts';
import { NODE, sendParameters, sendTest } from '../nodes/BulkSms/actions/message/sendTest.mts';
import { israeliSpellings, spellings } from './corpus.mts';

const shown = (value: unknown) => JSON.stringify(value);

describe('field data through Bulk SMS → Send', () => {
	const { credentials, send, sendRequests } = sendTest();

	/** The `dest` of every message the service received, in order. */
	const dests = () =>
		sendRequests().flatMap((request) => (request.body as IDataObject[]).map((m) => m.dest));

	test('To: every spelling is sent to its number, in the form typed (As Typed)', async () => {
		const result = await send(spellings.map(({ value }) => ({ to: value })));
		assert.equal(result.error, undefined, result.error?.message);
		assert.deepEqual(
			dests(),
			spellings.map(({ sent }) => sent),
		);
		assert.equal(result.items(NODE).length, spellings.length, 'one item per recipient');
	});

	test("Recipients From: Input Fields: every spelling, a number column's numbers included", async () => {
		const result = await runWorkflow({
			nodes: [
				{
					name: NODE,
					type: 'bulkSms',
					parameters: {
						...sendParameters(),
						recipientSource: 'inputFields',
						phoneField: 'phone',
						messageFrom: 'field',
						messageField: 'text',
					},
				},
			],
			input: spellings.map(({ value }) => ({
				json: { phone: value, text: 'Hello' } as IDataObject,
			})),
			credentials: credentials(),
		});
		assert.equal(result.error, undefined, result.error?.message);
		const sent = dests();
		spellings.forEach(({ value, sent: dest }, index) =>
			assert.equal(sent[index], dest, shown(value)),
		);
		assert.equal(sent.length, spellings.length);
	});

	test('Send Numbers As International: every spelling of an Israeli number is sent as its one international form', async () => {
		const result = await send(
			israeliSpellings.map(({ value }) => ({ to: value })),
			{},
			{ credentials: { sendNumbersAs: 'international', countryCode: '972' } },
		);
		assert.equal(result.error, undefined, result.error?.message);
		assert.deepEqual(
			dests(),
			israeliSpellings.map(({ identity }) => identity),
		);
	});
});
