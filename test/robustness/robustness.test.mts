/**
 * The robustness suite (issue 9), in one process so that one test can sweep everything the
 * others produced: faults, hangs, no double send, nothing lost, bad input, then secrets.
 *
 * The hangs on operations without a Timeout option wait for the default 60 s; they run on their
 * own sandbox beside the other suites (concurrency 2), so the whole file takes about a minute.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { DEFAULT_TOKENS, startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';
import { badInputSuite } from './badInput.mts';
import { doubleSendSuite } from './doubleSend.mts';
import {
	EVERY_OPERATION,
	EVERY_OPERATION_SOURCE,
	TRIGGER_EVENT_SOURCE,
	everyOperationSuite,
} from './everyOperation.mts';
import { faultSuite, triggerFaultSuite } from './faults.mts';
import { hangSuite } from './hangs.mts';
import { nothingLostSuite } from './nothingLost.mts';
import type { INodeProperties, INodePropertyMode, INodeType } from 'n8n-workflow';

import { loadPackage } from '../../dev/harness/engine.mts';
import {
	PASSWORD,
	TRIGGER_SECRET,
	collectedCount,
	findSecrets,
	pickedLocators,
	sweptKeys,
	timedRegexCalls,
} from './support.mts';
import { refusedKeys } from '../../dev/harness/outputKeys.mts';

describe('Robustness', { concurrency: 2 }, () => {
	hangSuite();

	describe('Faults, double sends, lost items and bad input', { concurrency: 1 }, () => {
		let sandbox: Sandbox;
		before(async () => {
			sandbox = await startSandbox();
		});
		after(async () => await sandbox.close());

		faultSuite(() => sandbox);
		triggerFaultSuite(() => sandbox);
		doubleSendSuite(() => sandbox);
		nothingLostSuite(() => sandbox);
		badInputSuite(() => sandbox);
		// Issue 17 §2: every operation once, for the output-key sweep below (and the secrets sweep).
		everyOperationSuite(() => sandbox);
	});
});

describe('Secrets', () => {
	const secrets = [
		DEFAULT_TOKENS.vn,
		DEFAULT_TOKENS.sms,
		DEFAULT_TOKENS.smsAccount,
		PASSWORD,
		TRIGGER_SECRET,
	];

	test('the sweep finds a secret where there is one', () => {
		const found = findSecrets(secrets, [
			{ source: 'planted', kind: 'error', text: `Bearer ${DEFAULT_TOKENS.vn} was refused` },
		]);
		assert.deepEqual(
			found.filter((entry) => entry.source === 'planted').map((entry) => entry.secret),
			[DEFAULT_TOKENS.vn],
		);
	});

	test('no access token, password or trigger secret in any output item, error message, error description or log line of the whole suite', () => {
		const counts = collectedCount();
		// The sweep covers the suite's work, not an empty list.
		assert.ok(
			counts.items > 300 && counts.errors > 300 && counts.logs > 0,
			`swept ${JSON.stringify(counts)}`,
		);
		const found = findSecrets(secrets);
		assert.deepEqual(found, [], `secrets found: ${JSON.stringify(found.slice(0, 5), null, 2)}`);
	});
});

// Issue 17 §2: no output key, at any depth, that n8n refuses in expressions (n8n-workflow's own
// isSafeObjectProperty), over every output item the suite produced.
describe('Output keys', () => {
	test('the sweep finds a refused key where there is one', () => {
		assert.deepEqual(refusedKeys({ a: { caller: 1 }, list: [{ arguments: 2 }] }), [
			'json.a.caller',
			'json.list[0].arguments',
		]);
	});

	test('no output item of the Virtual Number or Bulk SMS node, of any operation, has a key n8n refuses', () => {
		const swept = sweptKeys((source) => !source.startsWith(TRIGGER_EVENT_SOURCE));
		const everyOperation = sweptKeys((source) => source.startsWith(EVERY_OPERATION_SOURCE));
		assert.ok(
			swept.items > 300 && everyOperation.items >= EVERY_OPERATION.length,
			`swept ${swept.items} items, ${everyOperation.items} of them from every operation`,
		);
		assert.deepEqual(swept.refused, []);
	});

	test("no output item of the trigger's three events has a key n8n refuses", () => {
		const swept = sweptKeys((source) => source.startsWith(TRIGGER_EVENT_SOURCE));
		assert.equal(swept.items, 3, 'call started, call ended, SMS delivery');
		assert.deepEqual(swept.refused, []);
	});
});

/** Every resource-locator property called `name`, at any depth (collections, fixed collections). */
function locators(properties: INodeProperties[], name: string): INodeProperties[] {
	return properties.flatMap((property) => [
		...(property.type === 'resourceLocator' && property.name === name ? [property] : []),
		...locators(
			[
				...((property.options ?? []) as INodeProperties[]),
				...((property as { values?: INodeProperties[] }).values ?? []),
			],
			name,
		),
	]);
}

// See support.mts ("resource locators, and the suite's independence from the machine's load").
// Counted from here: another file run before this one in the same process is not the suite.
const timedRegexCallsBefore = timedRegexCalls();
describe("Independence from the machine's load", () => {
	test("no regex check with n8n's 250 ms wall-clock limit ran during the suite", () => {
		assert.ok(
			pickedLocators().length > 0,
			'the suite picked its resource-locator values From List',
		);
		assert.equal(
			timedRegexCalls() - timedRegexCallsBefore,
			0,
			'a run typed a resource-locator value By ID / By Number (n8n checks it by regex in a VM limited to 250 ms, which a loaded machine exceeds): use rl() / listedNumbers() from support.mts',
		);
	});

	test('the values the suite picked From List pass the regexes of a typed mode too (checked here, without the time limit)', async () => {
		const loader = await loadPackage();
		const checked: string[] = [];
		for (const { type, name, value } of pickedLocators()) {
			const properties = locators(
				(loader.getNode(type).type as INodeType).description.properties,
				name,
			);
			assert.ok(properties.length > 0, `${type} has a resource locator ${name}`);
			for (const property of properties) {
				// The typed modes (By ID, By Number, By Name…) and their regexes, as n8n builds them
				// (validateResourceLocatorParameter: ^…$), here with the native engine.
				const typed = (property.modes ?? [])
					.filter((mode: INodePropertyMode) => mode.name !== 'list')
					.map((mode: INodePropertyMode) => ({
						mode: mode.name,
						rules: (
							(mode.validation ?? []) as Array<{
								type?: string;
								properties?: { regex: string; errorMessage: string };
							}>
						).filter((rule) => rule.type === 'regex' && rule.properties),
					}));
				const accepting = typed.filter(({ rules }) =>
					rules.every((rule) => new RegExp(`^${rule.properties!.regex}$`).test(value)),
				);
				const refusals = typed.flatMap(({ mode, rules }) =>
					rules.map((rule) => `${mode}: ${rule.properties!.errorMessage}`),
				);
				assert.ok(
					accepting.length > 0,
					`${type} ${name} "${value}" is refused typed: ${refusals.join('; ')}`,
				);
				checked.push(`${type} ${name} ${value} (${accepting.map(({ mode }) => mode).join(', ')})`);
			}
		}
		assert.ok(checked.length >= 4, `checked ${checked.join(', ')}`);
	});
});
