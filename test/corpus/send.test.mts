// Bulk SMS → Send on every phone spelling of the field-data corpus, through n8n's engine against
// the sandbox: what the SMS service receives as `dest` for each, from the To field and from
// Recipients From: Input Fields, As Typed and International; the `read` note of each item; every
// value that cannot be one number refused with the field and what was seen; and Skip Opted-Out
// Numbers with the corpus on either side, from a List and from an earlier node's items, its rows
// that cannot be one number refusing the run before anything is sent.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { runWorkflow } from '../../dev/harness/engine.mts';
import { NODE, sendParameters, sendTest } from '../nodes/BulkSms/actions/message/sendTest.mts';
import { israeliSpellings, phones, spellings } from './corpus.mts';

const shown = (value: unknown) => JSON.stringify(value);

describe('field data through Bulk SMS → Send', () => {
	const { credentials, send, sendRequests } = sendTest();

	/** The `dest` of every message the service received, in order. */
	const dests = () =>
		sendRequests().flatMap((request) => (request.body as IDataObject[]).map((m) => m.dest));

	test('To: every spelling is sent to its number, in the form typed (As Typed), and its item says what was read', async () => {
		const result = await send(spellings.map(({ value }) => ({ to: value })));
		assert.equal(result.error, undefined, result.error?.message);
		assert.deepEqual(
			dests(),
			spellings.map(({ sent }) => sent),
		);
		const items = result.items(NODE);
		assert.equal(items.length, spellings.length, 'one item per recipient');
		spellings.forEach(({ value, read, extension }, index) => {
			const note = items[index].json.read;
			if (read === undefined) assert.equal(note, undefined, `${shown(value)}: read as written`);
			else assert.ok(String(note).includes(read), `${shown(value)}: ${String(note)} says ${read}`);
			if (extension)
				assert.ok(String(note).includes(`extension ${extension} is not dialled`), String(note));
		});
	});

	test('To: every value that cannot be one number fails its item, naming the field and what was seen; lists are read as lists', async () => {
		const input = [{ to: '0521234567' }, ...phones.refused.map(({ value }) => ({ to: value }))];
		const result = await send(input as IDataObject[], {}, { continueOnFail: true });
		assert.equal(result.error, undefined, result.error?.message);
		const items = result.items(NODE);
		phones.refused.forEach(({ value, problem }, index) => {
			const mine = items.filter(
				(item) => (item.pairedItem as { item?: number } | undefined)?.item === index + 1,
			);
			if (isList(value)) {
				assert.deepEqual(
					mine.map((item) => item.json.status),
					['Message in Action', 'Message in Action'],
					`${shown(value)}: two numbers in To`,
				);
				return;
			}
			assert.equal(mine.length, 1, shown(value));
			const error = String(mine[0].json.error);
			if (problem === 'is empty') assert.equal(error, 'To: is required and cannot be empty');
			else {
				assert.ok(error.startsWith('To: "'), error);
				assert.ok(error.includes(problem), `${error} says ${problem}`);
			}
		});
		const listed = phones.refused.filter(({ value }) => isList(value)).length;
		assert.equal(dests().length, 1 + 2 * listed, 'nothing else sent');
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

/** A refused value Send's To takes as a list of numbers (a separator, an array). */
const isList = (value: unknown) =>
	Array.isArray(value) || (typeof value === 'string' && /[;]/.test(value));

/** Each number of the corpus as people keep it on a list: the first spelling of each. */
const canonical = phones.numbers.map(({ spellings: list }) => list[0].value);

describe('field data through Bulk SMS → Send → Skip Opted-Out Numbers', () => {
	const { credentials, sendRequests } = sendTest();
	const dests = () =>
		sendRequests().flatMap((request) => (request.body as IDataObject[]).map((m) => m.dest));

	/** Send after a start node "Opt-outs" whose items carry each recipient (`to`) and maybe an opted-out number. */
	const run = async (
		input: Array<{ to: unknown; optedOut?: unknown }>,
		source: IDataObject,
		onError?: 'continueErrorOutput',
	) =>
		await runWorkflow({
			startName: 'Opt-outs',
			nodes: [
				{
					name: NODE,
					type: 'bulkSms',
					parameters: { ...sendParameters(), campaign: { optOuts: { source } } },
					onError,
				},
			],
			input: input.map((json) => ({ json: json as IDataObject })),
			credentials: credentials(),
		});
	const fromItems = { from: 'nodeItems', nodeName: 'Opt-outs', field: 'optedOut' };
	const fromList = {
		from: 'list',
		numbers: "={{ $('Opt-outs').all().map(item => item.json.optedOut) }}",
	};

	for (const [mode, source] of [
		["An Earlier Node's Items", fromItems],
		['List (an expression)', fromList],
	] as const) {
		test(`${mode}: every spelling of a number on the list skips that number, written as people do`, async () => {
			const input = [
				...spellings.map(({ value, identity }) => ({
					to: canonical[phones.numbers.findIndex((n) => n.identity === identity)],
					optedOut: value,
				})),
				{ to: '0521234567' },
			];
			const result = await run(input, source);
			assert.equal(result.error, undefined, result.error?.message);
			const items = result.items(NODE);
			assert.deepEqual(dests(), ['0521234567'], 'only the number not on the list');
			assert.equal(
				items.filter((item) => item.json.status === 'Not sent: opted out').length,
				spellings.length,
			);
		});
	}

	test('every spelling of a recipient matches the number on the list', async () => {
		const input = [
			...canonical.map((optedOut) => ({ to: '0521234567', optedOut })),
			...spellings.map(({ value }) => ({ to: value })),
		];
		const result = await run(input, fromItems);
		assert.equal(result.error, undefined, result.error?.message);
		const statuses = result.items(NODE).map((item) => item.json.status);
		assert.deepEqual(
			statuses.slice(canonical.length),
			spellings.map(() => 'Not sent: opted out'),
		);
		assert.deepEqual(
			dests(),
			canonical.map(() => '0521234567'),
		);
	});

	test('a row that cannot be one number refuses the run before anything is sent, naming the item and the value; an empty cell is no row, a list is read as one', async () => {
		for (const { value, problem } of phones.refused) {
			const sentBefore = dests().length;
			const result = await run(
				[{ to: '0521234567', optedOut: value }, { to: '0541110099' }],
				fromItems,
				'continueErrorOutput',
			);
			const [success, errors] = result.outputs(NODE);
			if (problem === 'is empty' || isList(value)) {
				assert.equal(errors.length, 0, `${shown(value)}: ${String(errors[0]?.json.error)}`);
				assert.equal(success.length, 2);
				continue;
			}
			assert.equal(success.length, 0, shown(value));
			assert.equal(dests().length, sentBefore, `${shown(value)}: nothing sent`);
			const error = String(errors[0].json.error);
			assert.ok(
				error.startsWith(
					'Skip Opted-Out Numbers: item 0 of "Opt-outs" (field "optedOut") is not one phone number: "',
				),
				error,
			);
			assert.ok(error.includes(problem), `${error} says ${problem}`);
		}
	});
});
