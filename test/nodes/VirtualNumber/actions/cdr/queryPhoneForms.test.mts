/**
 * Call Record → Query (builder), version 1.3: a number in Caller Numbers or Virtual Numbers finds
 * the calls whatever form the service stored it in and however it is written (phoneForms: as typed,
 * local `0…`, international `972…`), as the Call Record Trigger's filters do. Versions 1 to 1.2
 * keep matching the form typed only.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { CALLER_SPELLINGS, seedCallerCalls } from '../../../../../dev/harness/callerCalls.mts';
import { jsons, vnRequests, vnTest } from '../../vnRun.mts';

const { sandbox, run } = vnTest();

const sentSql = () => String((vnRequests(sandbox, 'cdr_query')[0].body as { sql: string }).sql);

/** The caller's calls (stored in two forms) and a neighbour's later call; the requests cleared. */
function seedCalls() {
	const { older, latest } = seedCallerCalls(sandbox);
	sandbox.control.clearRequests();
	return { older, newer: latest };
}

const byCaller = (callers: string, typeVersion: number, limit = 10) =>
	run({ resource: 'cdr', operation: 'query', callers, limit }, { typeVersion });

describe('Call Record → Query: a number in any form (version 1.3)', () => {
	for (const spelling of CALLER_SPELLINGS) {
		test(`"${spelling}" finds both of the caller's calls, whichever form the service stored`, async () => {
			const { older, newer } = seedCalls();
			const items = jsons(await byCaller(spelling, 1.3));
			assert.deepEqual(
				items.map((item) => item.callId),
				[newer, older],
				'newest first',
			);
			assert.match(
				sentSql(),
				/cdr_ani IN \('(0541110010|972541110010)', '(0541110010|972541110010)'\)/,
			);
		});
	}

	test('newest first, limit 1: the latest call of the caller', async () => {
		const { newer } = seedCalls();
		const items = jsons(await byCaller('0541110010', 1.3, 1));
		assert.deepEqual(
			items.map((item) => [item.callId, item.callerNumber]),
			[[newer, '972541110010']],
		);
		assert.equal(
			sentSql(),
			'SELECT cdr_uniqueid, cdr_ddi, cdr_ani, user_phone, call_status, start_call, call_duration ' +
				"FROM webserviceview WHERE cdr_ani IN ('0541110010', '972541110010') " +
				'ORDER BY start_call DESC LIMIT 1',
		);
	});

	test('Virtual Numbers match every form too; a number of another country as typed', async () => {
		seedCalls();
		jsons(
			await run(
				{
					resource: 'cdr',
					operation: 'query',
					virtualnums: '+972 72-200-0100',
					callers: '+1 212 555 0100',
				},
				{ typeVersion: 1.3 },
			),
		);
		assert.match(
			sentSql(),
			/ WHERE cdr_ddi IN \('972722000100', '0722000100'\) AND cdr_ani = '12125550100' /,
		);
	});

	test('versions 1 to 1.2: the form typed only, as before', async () => {
		for (const typeVersion of [1, 1.1, 1.2]) {
			const { older } = seedCalls();
			const items = jsons(await byCaller('0541110010', typeVersion));
			assert.deepEqual(
				items.map((item) => item.callId),
				[older],
			);
			assert.match(sentSql(), / WHERE cdr_ani = '0541110010' /);
			sandbox.control.reset();
		}
	});
});
