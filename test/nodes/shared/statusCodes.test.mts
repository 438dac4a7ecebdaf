import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
	GENERAL_CODES,
	SERVICE_CODES,
	TAG_OPERATIONS,
	UNAUTHORIZED_TEXTS,
	describeStatusCode,
} from '../../../nodes/shared/statusCodes.ts';
import {
	specGeneralCodes,
	specServiceCodes,
	specUnauthorizedTexts,
} from '../../../dev/harness/spec.mts';

describe('status-code catalogue', () => {
	test('holds every (operation, code) pair of the spec tables, under the same operation', () => {
		const pairs = specServiceCodes();
		assert.ok(pairs.length > 140, `parsed only ${pairs.length} codes from the spec`);
		const missing = pairs.filter(
			({ service, code }) => SERVICE_CODES[service]?.[code] === undefined,
		);
		assert.deepEqual(missing, []);
	});

	test('has no code for an operation that the spec does not list it under (tags aside)', () => {
		const spec = new Set(specServiceCodes().map(({ service, code }) => `${service}:${code}`));
		const extra = Object.entries(SERVICE_CODES)
			.filter(([operation]) => !(TAG_OPERATIONS as readonly string[]).includes(operation))
			.flatMap(([operation, codes]) => Object.keys(codes).map((code) => `${operation}:${code}`))
			.filter((pair) => !spec.has(pair));
		assert.deepEqual(extra, []);
	});

	test('marks every tag code as assumed or reported, since the spec shows none', () => {
		for (const operation of TAG_OPERATIONS) {
			for (const [code, info] of Object.entries(SERVICE_CODES[operation])) {
				assert.notEqual(
					info.assumed === true,
					info.reported === true,
					`${operation} ${code}: assumed or reported, one of them`,
				);
			}
			// Reported by public integrations with the real service (issue 13).
			assert.equal(SERVICE_CODES[operation][5072]?.reported, true);
			assert.equal(SERVICE_CODES[operation][5044]?.reported, true);
		}
	});

	test('holds the general codes', () => {
		for (const { code } of specGeneralCodes())
			assert.ok(GENERAL_CODES[code], `general code ${code}`);
		assert.equal(describeStatusCode('get_users', 998)?.meaning, GENERAL_CODES[998].meaning);
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
