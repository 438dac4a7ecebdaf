import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { isSafeObjectProperty } from 'n8n-workflow';

import {
	CALL_FIELDS,
	simplifyCallRow,
	simplifyManualParams,
} from '../../../../../nodes/shared/callFields.ts';

describe('simplified call rows', () => {
	test('columns get the vocabulary names; values are typed; other fields keep their names and order', () => {
		assert.deepEqual(
			simplifyCallRow({
				CDR_UNIQUEID: '1.2',
				calls: 3,
				call_duration: '125',
				id: '7',
				record_file_exists: '',
				user_phone: '0501',
				'COUNT(*)': 9,
			}),
			{
				callId: '1.2',
				calls: 3,
				durationSec: 125,
				rowId: 7,
				recordingExists: false,
				destinationPhone: '0501',
				'COUNT(*)': 9,
			},
		);
		assert.deepEqual(Object.keys(simplifyCallRow({ b: 1, cdr_ani: 'x', a: 2 })), [
			'b',
			'callerNumber',
			'a',
		]);
		for (const value of [1, '1', 'yes', true])
			assert.equal(simplifyCallRow({ record_file_exists: value }).recordingExists, true);
		for (const value of [0, '0', '', null, false])
			assert.equal(simplifyCallRow({ record_file_exists: value }).recordingExists, false);
	});

	test('an alias that is already a vocabulary name wins over the column', () => {
		assert.deepEqual(simplifyCallRow({ cdr_uniqueid: 'column', callId: 'alias' }), {
			cdr_uniqueid: 'column',
			callId: 'alias',
		});
	});

	test("create_virtualnum_cdr's parameters under the vocabulary names", () => {
		assert.deepEqual(
			simplifyManualParams({
				cdr_ddi: '072',
				cdr_destination: '050',
				cdr_totac_sec: 30,
				cdr_metadata: '{}',
				other: 1,
			}),
			{
				virtualNumber: '072',
				destinationPhone: '050',
				durationSec: 30,
				marketingMetadata: '{}',
			},
		);
	});

	test('every output name is one n8n lets expressions read', () => {
		for (const field of CALL_FIELDS) assert.ok(isSafeObjectProperty(field.key), field.key);
	});
});

describe('docs/call-records.md', () => {
	test('its table of call fields is the vocabulary', () => {
		const doc = readFileSync(
			new URL('../../../../../docs/call-records.md', import.meta.url),
			'utf8',
		);
		const rows = doc.split('\n').filter((line) => /^\| `\w+` +\|/.test(line));
		const documented = rows.map((line) => line.split('|').map((cell) => cell.trim()));
		const withColumn = CALL_FIELDS.filter((field) => 'column' in field);
		assert.deepEqual(
			documented.map((cells) => [
				cells[1].replace(/`/g, ''),
				cells[2],
				cells[3].replace(/`/g, '').split(' ')[0],
			]),
			withColumn.map((field) => [field.key, field.displayName, field.column]),
		);
		for (const cells of documented) {
			const field = CALL_FIELDS.find((f) => f.key === cells[1].replace(/`/g, ''))!;
			const manual = 'manualParam' in field ? field.manualParam : undefined;
			if (manual) assert.equal(cells[4], `\`${manual}\``, field.key);
		}
	});
});
