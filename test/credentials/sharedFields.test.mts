/**
 * The fields both credentials share (credentials/common.ts): a saved credential holds them by name,
 * so their names, types, defaults and values must never change.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { credentialType, loadPackage } from '../../dev/harness/engine.mts';

const SAVED = [
	['sendNumbersAs', 'options', 'asTyped'],
	['countryCode', 'string', '972'],
	['serviceTimeZone', 'string', 'Asia/Jerusalem'],
];

describe('the fields both credentials share', () => {
	for (const name of ['virtualnumApi', 'virtualnumSmsApi']) {
		test(`${name}: names, types and defaults as saved credentials hold them`, async () => {
			const credential = credentialType(await loadPackage(), name);
			const fields = credential.properties.filter((p) => SAVED.some(([name]) => name === p.name));
			assert.deepEqual(
				fields.map((p) => [p.name, p.type, p.default]),
				SAVED,
			);
			const sendAs = fields[0].options as Array<{ value: string }>;
			assert.deepEqual(
				sendAs.map((o) => o.value),
				['asTyped', 'local', 'international'],
			);
			assert.deepEqual(fields[1].displayOptions, { show: { sendNumbersAs: ['international'] } });
		});
	}

	test('each credential says which numbers Send Numbers As applies to', async () => {
		const pkg = await loadPackage();
		const text = (name: string) =>
			String(
				credentialType(pkg, name).properties.find((p) => p.name === 'sendNumbersAs')!.description,
			);
		assert.match(
			text('virtualnumApi'),
			/^The form the phone numbers of the Virtual Number node are sent in/,
		);
		assert.match(
			text('virtualnumSmsApi'),
			/^The form the recipients of Bulk SMS → Send are sent in/,
		);
	});
});
