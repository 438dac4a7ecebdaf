/**
 * Version 1.1 opens on Call Record → Query; version 1 keeps Account → Test Connection. The editor
 * saves only the parameters that differ from their default (it calls NodeHelpers.getNodeParameters
 * with returnDefaults false when a parameter changes), so a version-1 workflow on Test Connection
 * has no resource and no operation: a new default would change what it does.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { INodeParameters, INodeType } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { loadPackage, runWorkflow } from '../../../dev/harness/engine.mts';
import { sandboxPerFile } from '../../../dev/harness/nodeTest.mts';
import { jsons, vnRequests } from './vnRun.mts';

async function nodeType(): Promise<INodeType> {
	return (await loadPackage()).getNode('virtualNumber').type as INodeType;
}

/** What the editor saves for a node of `typeVersion` whose parameters are `parameters`. */
async function saved(
	typeVersion: number,
	parameters: INodeParameters,
): Promise<INodeParameters | null> {
	const type = await nodeType();
	return NodeHelpers.getNodeParameters(
		type.description.properties,
		parameters,
		false,
		false,
		{ typeVersion },
		type.description,
	);
}

/** The parameters the engine runs a saved node with (defaults filled in, as the Workflow constructor does). */
async function resolved(
	typeVersion: number,
	parameters: INodeParameters,
): Promise<INodeParameters | null> {
	const type = await nodeType();
	return NodeHelpers.getNodeParameters(
		type.description.properties,
		parameters,
		true,
		false,
		{ typeVersion },
		type.description,
	);
}

describe('Virtual Number node versions: the default resource', () => {
	test('new nodes get version 1.3; versions 1 to 1.2 stay loadable', async () => {
		const { description } = await nodeType();
		assert.deepEqual(description.version, [1, 1.1, 1.2, 1.3]);
		assert.equal(description.defaultVersion, 1.3);
	});

	test('versions 1.2 and 1.3 open on Call Record → Query too', async () => {
		assert.equal((await resolved(1.2, {}))?.resource, 'cdr');
		assert.equal((await resolved(1.3, {}))?.resource, 'cdr');
	});

	test('version 1: Account → Test Connection is saved as no parameters, and read back as it', async () => {
		assert.deepEqual(await saved(1, { resource: 'account', operation: 'test' }), {});
		assert.deepEqual(await resolved(1, {}), { resource: 'account', operation: 'test' });
	});

	test('version 1.1: a new node opens on Call Record → Query; Test Connection is saved with its resource', async () => {
		const query = await resolved(1.1, {});
		assert.equal(query?.resource, 'cdr');
		assert.equal(query?.operation, 'query');
		assert.deepEqual(await saved(1.1, { resource: 'account', operation: 'test' }), {
			resource: 'account',
		});
	});

	describe('run on the engine', () => {
		const sandbox = sandboxPerFile();

		const run = (typeVersion: number) =>
			runWorkflow({
				nodes: [{ name: 'VN', type: 'virtualNumber', typeVersion, parameters: {} }],
				credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
			});

		test('a saved version-1 workflow without resource and operation still runs Test Connection', async () => {
			const items = jsons(await run(1));
			assert.deepEqual(items, [{ connected: true, statusCode: 200, statusDescription: 'OK' }]);
			assert.deepEqual(
				vnRequests(sandbox).map((request) => request.operation),
				['test'],
			);
		});

		test('a version-1.1 node without resource and operation queries the call records', async () => {
			const items = jsons(await run(1.1));
			assert.deepEqual(
				vnRequests(sandbox).map((request) => request.operation),
				['cdr_query'],
			);
			assert.ok(
				items.length > 0 && items.every((item) => typeof item.callId === 'string'),
				"rows under the trigger's names",
			);
		});
	});
});
