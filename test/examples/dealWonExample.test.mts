/**
 * examples/crm-deal-won-value-to-call.json: a CRM marks a deal won (n8n's Webhook receives
 * `{ phone, value, currency? }`), Call Record → Query finds the caller's latest call by phone
 * identity (newest first, limit 1, whatever form the CRM and the service write the number in), and
 * Offline Conversion → Set puts the value on it; n8n's If and Switch route the answers (no phone,
 * a phone that cannot be read, no call). Here the example's nodes up to the answers run on the
 * engine, with n8n's own If and Switch, against the sandbox; the answers themselves (Respond to
 * Webhook, which needs n8n's webhook server) are proven in `npm run e2e -- --only dealWon`
 * (dev/e2e/lib/dealWon.mts).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject, INodeTypes } from 'n8n-workflow';

import { loadPackage, runWorkflow, type RunResult } from '../../dev/harness/engine.mts';
import {
	InstalledNodeTypes,
	installStatus,
	loadInstalledNodes,
} from '../../dev/harness/n8nInstall.mts';
import { CALLER, CALLER_SPELLINGS, seedCallerCalls } from '../../dev/harness/callerCalls.mts';
import { startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';
import { loadExample, pinnedItems } from '../../dev/demo/workflows.mts';

const workflow = loadExample('crm-deal-won-value-to-call.json');
const node = (name: string) => workflow.nodes.find((candidate) => candidate.name === name)!;
const WEBHOOK = 'Deal won';
const PHONE_GIVEN = 'Phone given?';
const QUERY = 'Latest call of the caller';
const SWITCH = 'Call found?';
const SET = 'Put the value on the call';

let sandbox: Sandbox;
let nodeTypes: INodeTypes | undefined;
const status = installStatus(['n8n-nodes-base']);
/** Why the tests cannot run here: n8n's If and Switch come from the e2e install of n8n. */
const notInstalled = status.available ? '' : status.reason;

before(async () => {
	sandbox = await startSandbox({ profile: 'contract' });
	if (!status.available) return;
	const file = (folder: string, name: string) => ({
		pkg: 'n8n-nodes-base',
		file: `dist/nodes/${folder}/${name}.node.js`,
		exported: name,
	});
	nodeTypes = new InstalledNodeTypes(
		await loadPackage(),
		loadInstalledNodes({
			'n8n-nodes-base.if': file('If', 'If'),
			'n8n-nodes-base.switch': file('Switch', 'Switch'),
		}),
	);
});
after(async () => await sandbox.close());

/** The CRM's request as the Webhook node gives it, with this body. */
const request = (body: IDataObject) => ({
	json: { ...pinnedItems(workflow, WEBHOOK)[0].json, body },
});

/** The example from its webhook to the Offline Conversion (every answer node left out). */
async function dealWon(body: IDataObject): Promise<RunResult> {
	const ours = [PHONE_GIVEN, QUERY, SWITCH, SET].map((name) => {
		const { type, typeVersion, parameters, credentials, onError } = node(name);
		const { alwaysOutputData } = node(name) as { alwaysOutputData?: boolean };
		return { name, type, typeVersion, parameters, credentials, onError, alwaysOutputData };
	});
	return await runWorkflow({
		nodes: ours,
		connections: [
			[PHONE_GIVEN, QUERY],
			[QUERY, SWITCH],
			[SWITCH, SET, 1],
		],
		input: [request(body)],
		startName: WEBHOOK,
		nodeTypes,
		credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
	});
}

const conversions = () =>
	sandbox.control
		.requests({ service: 'vn', operation: 'set_ads_offline_conversion' })
		.map((r) => r.body as IDataObject);

describe('examples/crm-deal-won-value-to-call.json on the engine', () => {
	beforeEach(() => sandbox.control.reset());

	for (const phone of CALLER_SPELLINGS) {
		test(`"${phone}": the value goes on the caller's latest call`, async (t) => {
			if (!nodeTypes) return t.skip(notInstalled);
			const { latest } = seedCallerCalls(sandbox);
			sandbox.control.clearRequests();
			const result = await dealWon({ phone, value: 1200, currency: 'ILS' });
			assert.equal(result.error, undefined, result.error?.message);
			const [notRead, found, noCall] = result.outputs(SWITCH);
			assert.deepEqual([notRead.length, noCall.length], [0, 0]);
			assert.deepEqual(
				found.map((item) => item.json.callId),
				[latest],
			);
			assert.deepEqual(conversions(), [{ call_uuid: latest, conversion_value: '1200' }]);
			assert.deepEqual(
				result.items(SET).map((item) => [item.json.callId, item.json.conversion_value]),
				[[latest, 1200]],
			);
		});
	}

	test('a caller with no call: the "No call" answer, nothing stored', async (t) => {
		if (!nodeTypes) return t.skip(notInstalled);
		seedCallerCalls(sandbox);
		sandbox.control.clearRequests();
		const result = await dealWon({ phone: '050-999-0000', value: 300 });
		assert.equal(result.error, undefined, result.error?.message);
		const [notRead, found, noCall] = result.outputs(SWITCH);
		assert.deepEqual([notRead.length, found.length, noCall.length], [0, 0, 1]);
		assert.deepEqual(conversions(), []);
	});

	test('no phone: asked back before any query (an empty Caller Numbers would match anyone)', async (t) => {
		if (!nodeTypes) return t.skip(notInstalled);
		seedCallerCalls(sandbox);
		sandbox.control.clearRequests();
		const result = await dealWon({ value: 300 });
		assert.equal(result.error, undefined, result.error?.message);
		assert.deepEqual(
			result.outputs(PHONE_GIVEN).map((items) => items.length),
			[0, 1],
		);
		assert.deepEqual(sandbox.control.requests({ service: 'vn' }), []);
	});

	test('a phone that cannot be read: the "Phone not read" answer with the reason, no query sent', async (t) => {
		if (!nodeTypes) return t.skip(notInstalled);
		seedCallerCalls(sandbox);
		sandbox.control.clearRequests();
		const result = await dealWon({ phone: 'call me', value: 300 });
		assert.equal(result.error, undefined, result.error?.message);
		const [notRead, found, noCall] = result.outputs(SWITCH);
		assert.deepEqual([found.length, noCall.length], [0, 0]);
		assert.match(String(notRead[0].json.error), /^Caller Numbers: must be phone numbers/);
		assert.deepEqual(sandbox.control.requests({ service: 'vn' }), []);
	});

	test('a value that is not a number: the error output, naming the field; nothing stored', async (t) => {
		if (!nodeTypes) return t.skip(notInstalled);
		seedCallerCalls(sandbox);
		sandbox.control.clearRequests();
		const result = await dealWon({ phone: CALLER, value: 'a lot' });
		assert.equal(result.error, undefined, result.error?.message);
		const [stored, failed] = result.outputs(SET);
		assert.equal(stored.length, 0);
		assert.deepEqual(failed[0].json.errorDetails, { field: 'Conversion Value' });
		assert.deepEqual(conversions(), []);
	});
});
