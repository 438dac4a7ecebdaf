/**
 * Issue 13: the virtual number service requires the bearer header only "when an API access token
 * is configured for the account". An account that relies on its allowed IP list alone leaves the
 * Access Token empty: the credential saves, and no Authorization header is sent, by the nodes, the
 * trigger's registration and the credential test alike.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { INodeProperties } from 'n8n-workflow';

import {
	credentialType,
	loadPackage,
	runWorkflow,
	testCredential,
} from '../../dev/harness/engine.mts';
import { startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';

describe('Virtual Number API: the Access Token is optional', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());
	beforeEach(() => sandbox.control.reset());

	const readNumber = (accessToken: string) =>
		runWorkflow({
			nodes: [
				{
					name: 'Node',
					type: 'virtualNumber',
					parameters: {
						resource: 'virtualnum',
						operation: 'get',
						virtualnum: { __rl: true, mode: 'id', value: '0722000100' },
					},
				},
			],
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken } },
		});

	test('the field is not required', async () => {
		const type = credentialType(await loadPackage(), 'virtualnumApi');
		const field = type.properties.find(
			(property: INodeProperties) => property.name === 'accessToken',
		);
		assert.notEqual(field?.required, true);
		assert.equal(field?.typeOptions?.password, true);
	});

	test('for an account without a token, an empty Access Token sends no Authorization header, and the node works', async () => {
		sandbox.control.configure({ apiToken: false });
		const result = await readNumber('');
		assert.equal(result.error, undefined, result.error?.message);
		assert.equal(result.items('Node')[0].json.virtualnum, '0722000100');
		const [request] = sandbox.control.requests({ operation: 'get_virtualnum' });
		assert.equal(request.headers.authorization, undefined, 'no Authorization header at all');
	});

	test('a token of only spaces counts as empty', async () => {
		sandbox.control.configure({ apiToken: false });
		assert.equal((await readNumber('   ')).error, undefined);
		assert.equal(
			sandbox.control.requests({ operation: 'get_virtualnum' })[0].headers.authorization,
			undefined,
		);
	});

	test('for an account with a token, an empty Access Token is refused with what to do', async () => {
		const result = await readNumber('');
		assert.match(
			String(result.error?.message),
			/The service requires an access token and none was sent/,
		);
		assert.match(
			String(result.error?.description),
			/Enter the account's API access token as the credential's Access Token/,
		);
	});

	test('the credential test passes without a token for such an account, sending no Authorization header', async () => {
		sandbox.control.configure({ apiToken: false });
		const result = await testCredential('virtualNumber', 'virtualnumApi', {
			baseUrl: sandbox.vnUrl,
			accessToken: '',
		});
		assert.deepEqual(result, { status: 'OK', message: 'Connection successful' });
		assert.equal(
			sandbox.control.requests({ operation: 'test' })[0].headers.authorization,
			undefined,
		);
	});

	test('a token that is set is still sent as Authorization: Bearer', async () => {
		assert.equal((await readNumber(sandbox.tokens.vn)).error, undefined);
		assert.equal(
			sandbox.control.requests({ operation: 'get_virtualnum' })[0].headers.authorization,
			`Bearer ${sandbox.tokens.vn}`,
		);
	});
});
