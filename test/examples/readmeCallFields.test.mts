/**
 * README's statement about the call-field vocabulary, read against what the nodes output: the Call
 * operations' output names that are not the vocabulary's (the numbers they echo) are exactly the ones
 * README lists for each of them, and every name README lists there is one they output.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { CALL_FIELDS } from '../../nodes/shared/callFields.ts';
import { startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';
import { jsons, rl, vnRunner } from '../nodes/VirtualNumber/vnRun.mts';

const README = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
/** The paragraph that says where the vocabulary does not hold. */
const PARAGRAPH =
	README.split('\n').find((line) =>
		line.startsWith('The trigger and the Call Record operations name call fields the same way'),
	) ?? '';
const VOCABULARY = new Set<string>(CALL_FIELDS.map((field) => field.key));
const NUMBER = '0722000100';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);
before(async () => {
	sandbox = await startSandbox();
});
after(async () => await sandbox.close());

/** The operations, with parameters that make them output every name they can (newest version). */
const OPERATIONS: Record<string, Record<string, unknown>> = {
	'Click to Call': {
		resource: 'call',
		operation: 'clickToCall',
		virtualnum: rl(NUMBER),
		destination: '0501234567',
	},
	'Create Click-to-Call Link': {
		resource: 'call',
		operation: 'createLink',
		virtualnum: rl(NUMBER),
		destination: '0501234567',
	},
	'Two-Leg Call': {
		resource: 'call',
		operation: 'twoLegCall',
		virtualnum1: rl(NUMBER),
		destination1: '0501234567',
		destination2: '0521234567',
		options: { virtualnum2: '0722000101' },
	},
};

/** Output names about the numbers and phones of a call that are not the vocabulary's. */
const numberNames = (keys: string[]) =>
	keys.filter((key) => /virtualnum|destination|caller/i.test(key) && !VOCABULARY.has(key)).sort();

/** The backticked names README gives for one operation: after its bold name, up to the end of its clause. */
function readmeNames(operation: string): string[] {
	const start = PARAGRAPH.indexOf(`**${operation}**`);
	if (start < 0) return [];
	const rest = PARAGRAPH.slice(start + operation.length + 4);
	const end = rest.search(/; |\. |\*\*/);
	return [...(end < 0 ? rest : rest.slice(0, end)).matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort();
}

describe("README: where the Call operations' output does not use the call vocabulary", () => {
	test('README has the statement', () => {
		assert.ok(PARAGRAPH, 'README lost the paragraph on the call-field vocabulary');
	});

	for (const [operation, parameters] of Object.entries(OPERATIONS)) {
		test(`${operation}: the names README lists are the ones it outputs`, async () => {
			const [item] = jsons(await run(parameters, { typeVersion: 1.1 }));
			const output = numberNames(Object.keys(item));
			assert.deepEqual(
				readmeNames(operation),
				output,
				`${operation} outputs ${JSON.stringify(Object.keys(item))}`,
			);
		});
	}

	test("the call ID the Call operations output is the vocabulary's `callId` (version 1.1)", async () => {
		const [item] = jsons(await run(OPERATIONS['Click to Call'], { typeVersion: 1.1 }));
		assert.match(String(item.callId), /^\d+\.\d+$/);
		assert.match(PARAGRAPH, /`callId` \(version 1\.1; `call_uuid` in version 1\)/);
	});
});
