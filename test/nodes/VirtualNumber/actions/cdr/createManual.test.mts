import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { expr, failure, jsons, rl, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run, refused } = vnTest();

describe('Virtual Number → Call Record → Create Manual Record', () => {
	const create = (additionalFields: Record<string, unknown>, timezone?: string) =>
		run(
			{
				resource: 'cdr',
				operation: 'createManual',
				virtualnum: rl('0722000102'),
				additionalFields,
			},
			{ timezone },
		);

	test('sends every field in the service format and outputs the new call ID', async () => {
		const items = jsons(
			await create(
				{
					startTime: '2024-11-05T09:30:00',
					duration: 125,
					callerNumber: '050-123-4567',
					destination: '+972 52 765 4321',
					metadata: '{"source":"ivr","lead":17}',
				},
				'Asia/Jerusalem',
			),
		);
		const [request] = vnRequests(sandbox, 'create_virtualnum_cdr');
		assert.equal(request.method, 'POST');
		assert.deepEqual(request.body, {
			cdr_ddi: '0722000102',
			cdr_start_call: '2024-11-05 09:30:00',
			cdr_totac_sec: '125',
			cdr_ani: '0501234567',
			cdr_destination: '972527654321',
			cdr_metadata: '{"source":"ivr","lead":17}',
		});
		assert.match(String(items[0].callId), /^\d+\.\d+$/);
		assert.deepEqual(items[0], {
			callId: items[0].callId,
			virtualNumber: '0722000102',
			callerNumber: '0501234567',
			destinationPhone: '972527654321',
			startTime: '2024-11-05 09:30:00',
			startedAt: '2024-11-05T09:30:00+02:00',
			durationSec: 125,
			marketingMetadata: '{"source":"ivr","lead":17}',
		});
		const record = sandbox.control.cdr(String(items[0].callId));
		assert.equal(record?.start_call, '2024-11-05 09:30:00');
		assert.equal(record?.end_call, '2024-11-05 09:32:05');
		assert.equal(record?.cdr_ani, '0501234567');
		assert.equal(
			record?.user_phone,
			'972527654321',
			'Destination Phone is the phone that took the call',
		);
		assert.equal(record?.cdr_meta_data, '{"source":"ivr","lead":17}');
	});

	test("Simplify off: the service's answer and the parameters sent, as before", async () => {
		const [item] = jsons(
			await run({
				resource: 'cdr',
				operation: 'createManual',
				virtualnum: rl('0722000102'),
				additionalFields: { duration: 30 },
				simplify: false,
			}),
		);
		assert.deepEqual(Object.keys(item), ['cdr_uniqueid', 'cdr_ddi', 'cdr_totac_sec']);
		assert.equal(item.cdr_totac_sec, 30);
		assert.ok(sandbox.control.cdr(String(item.cdr_uniqueid)));
	});

	test('the call ID it outputs works in the Call ID field of Get Metadata', async () => {
		const [created] = jsons(await create({ callerNumber: '0501234567' }));
		const [metadata] = jsons(
			await run(
				{ resource: 'cdr', operation: 'getMetadata', callUuid: '={{ $json.callId }}' },
				{ input: [{ json: created }] },
			),
		);
		assert.equal((metadata.cdr as Record<string, unknown>).cdr_uniqueid, created.callId);
	});

	test('the fields are named and described in the words of the call fields', async () => {
		const { description } = await import(
			'../../../../../nodes/VirtualNumber/actions/cdr/createManual.operation.ts'
		);
		const fields = (description.find((property) => property.name === 'additionalFields')!.options ??
			[]) as Array<{ name: string; displayName: string; description?: string }>;
		assert.deepEqual(
			fields.map((field) => [field.name, field.displayName]),
			[
				['startTime', 'Call Start'],
				['callerNumber', 'Caller Number'],
				['destination', 'Destination Phone'],
				['duration', 'Duration (Seconds)'],
				['metadata', 'Marketing Metadata (JSON)'],
			],
		);
		assert.match(
			String(fields[2].description),
			/^The phone that took the call \(not the virtual number that was dialled\)/,
		);
	});

	test('metadata given as an object from an expression is sent as JSON', async () => {
		jsons(await create({ metadata: '={{ { "utm_source": "crm" } }}' }));
		assert.equal(
			(vnRequests(sandbox, 'create_virtualnum_cdr')[0].body as Record<string, string>).cdr_metadata,
			'{"utm_source":"crm"}',
		);
	});

	test('only the number: nothing else is sent', async () => {
		jsons(await create({}));
		assert.deepEqual(vnRequests(sandbox, 'create_virtualnum_cdr')[0].body, {
			cdr_ddi: '0722000102',
		});
	});

	test('a caller number the service does not accept fails with the meaning of 2027', async () => {
		const error = failure(await create({ callerNumber: '12345' }));
		assert.match(error.message, /The caller number is invalid \(code 2027\)/);
		assert.match(String(error.description), /valid Israeli number/);
	});

	const bad: Array<[string, Record<string, unknown>, RegExp]> = [
		[
			'a duration of 0',
			{ duration: 0 },
			/^Duration \(Seconds\): must be a whole number from 1 to 3599/,
		],
		[
			'a duration of 3600',
			{ duration: 3600 },
			/^Duration \(Seconds\): must be a whole number from 1 to 3599/,
		],
		['a duration of 1.5', { duration: 1.5 }, /^Duration \(Seconds\): /],
		['a start that is no date', { startTime: expr('last tuesday') }, /^Call Start: must be a date/],
		[
			'metadata that is not JSON',
			{ metadata: '{"source": ivr}' },
			/^Marketing Metadata \(JSON\): must be valid JSON/,
		],
		[
			'a caller that is no phone number',
			{ callerNumber: 'anonymous' },
			/^Caller Number: must be a phone number/,
		],
		[
			'a destination that is no phone number',
			{ destination: "0' OR 1" },
			/^Destination: must be a phone number/,
		],
	];
	for (const [name, fields, expected] of bad) {
		test(`${name} is refused before any request`, async () => {
			await refused(
				{
					resource: 'cdr',
					operation: 'createManual',
					virtualnum: rl('0722000102'),
					additionalFields: fields,
				},
				expected,
			);
		});
	}
});
