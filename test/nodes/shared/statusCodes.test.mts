import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { UNAUTHORIZED_TEXTS, describeStatusCode } from '../../../nodes/shared/statusCodes.ts';
import {
	specGeneralCodes,
	specServiceCodes,
	specUnauthorizedTexts,
	specVirtualnumOperations,
} from '../../../dev/harness/spec.mts';

// The catalogue is read the way the transport reads it: describeStatusCode(operation, code).
// Service codes have 4 or 5 digits (1xxx-9xxx by area, create_virtualnum's 40010-40015); the general
// ones (200, 401, 998, 999) have 3.
const SERVICE_CODE_RANGE = Array.from({ length: 99000 }, (_, i) => 1000 + i);
const found = new Map<string, number[]>();

/** The codes the catalogue holds for one operation, found by asking it about every service code. */
function codesOf(operation: string): number[] {
	if (!found.has(operation))
		found.set(
			operation,
			SERVICE_CODE_RANGE.filter((code) => describeStatusCode(operation, code) !== undefined),
		);
	return found.get(operation)!;
}

/** Every operation of the spec, and every operation its code table names. */
const operations = [
	...new Set([...specVirtualnumOperations(), ...specServiceCodes().map(({ service }) => service)]),
];
/** The tag operations: the spec lists their names only, no codes. */
const tagOperations = operations.filter((operation) => operation.includes('tag'));

describe('status-code catalogue', () => {
	test('holds every (operation, code) pair of the spec tables, under the same operation', () => {
		const pairs = specServiceCodes();
		assert.ok(pairs.length > 140, `parsed only ${pairs.length} codes from the spec`);
		const missing = pairs.filter(({ service, code }) => !codesOf(service).includes(code));
		assert.deepEqual(missing, []);
	});

	test('has no code for an operation that the spec does not list it under (tags aside)', () => {
		const spec = new Set(specServiceCodes().map(({ service, code }) => `${service}:${code}`));
		const extra = operations
			.filter((operation) => !tagOperations.includes(operation))
			.flatMap((operation) => codesOf(operation).map((code) => `${operation}:${code}`))
			.filter((pair) => !spec.has(pair));
		assert.deepEqual(extra, []);
	});

	test('marks every tag code as assumed or reported, since the spec shows none', () => {
		assert.equal(tagOperations.length, 13);
		for (const operation of tagOperations) {
			const codes = codesOf(operation);
			assert.ok(codes.length > 5, `${operation}: ${codes.length} codes`);
			for (const code of codes) {
				const info = describeStatusCode(operation, code)!;
				assert.notEqual(
					info.assumed === true,
					info.reported === true,
					`${operation} ${code}: assumed or reported, one of them`,
				);
			}
			// Reported by public integrations with the real service.
			assert.equal(describeStatusCode(operation, 5072)?.reported, true);
			assert.equal(describeStatusCode(operation, 5044)?.reported, true);
		}
	});

	test('holds the general codes, the same for every operation', () => {
		const general = specGeneralCodes();
		assert.deepEqual(
			general.map(({ code }) => code),
			[200, 401, 998, 999],
		);
		for (const { code } of general) {
			const meanings = new Set(
				operations.map((operation) => describeStatusCode(operation, code)?.meaning),
			);
			assert.equal(meanings.size, 1, `general code ${code}: ${[...meanings].join(' / ')}`);
			assert.ok([...meanings][0], `general code ${code}`);
		}
		assert.match(describeStatusCode('get_users', 998)!.meaning, /service parameter is missing/);
	});

	test('distinguishes the same code under different operations (1015, 4043)', () => {
		assert.notEqual(
			describeStatusCode('release_virtualnum', 4043)?.meaning,
			describeStatusCode('restore_virtualnum', 4043)?.meaning,
		);
		assert.match(describeStatusCode('restore_virtualnum', 4043)!.meaning, /already active/);
		assert.match(describeStatusCode('get_cdr_metadata_by_call_uuid', 1015)!.meaning, /No metadata/);
		assert.match(
			describeStatusCode('set_ads_offline_conversion', 1015)!.meaning,
			/call ID is missing/,
		);
	});

	test('recognises every 401 text of the spec, each with its own advice', () => {
		const texts = specUnauthorizedTexts().map((text) => text.replace('<ip>', '10.1.2.3'));
		assert.equal(texts.length, 5);
		const hints = texts.map(
			(text) => UNAUTHORIZED_TEXTS.find(({ pattern }) => pattern.test(text))?.hint,
		);
		assert.ok(
			hints.every(Boolean),
			`unrecognised: ${texts.filter((_, i) => !hints[i]).join(', ')}`,
		);
		assert.equal(new Set(hints).size, hints.length);
	});
});
