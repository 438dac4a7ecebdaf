// The SMS credential's form: what it tells the user before the first request.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { credentialType, loadPackage } from '../../dev/harness/engine.mts';

describe('Virtual Number SMS API credential form', () => {
	test("says that the service checks n8n's IP against the account's allowed list (its documentation does; the contract does not)", async () => {
		const type = credentialType(await loadPackage(), 'virtualnumSmsApi');
		const notice = type.properties.find((p) => p.type === 'notice');
		assert.match(
			String(notice?.displayName),
			/add the public IP of your n8n server to the account's allowed IP list/,
		);
		const baseUrl = type.properties.find((p) => p.name === 'baseUrl');
		assert.match(String(baseUrl?.hint), /public IP.*allowed IP list/);
	});

	test('the Account Token is optional, a password, and goes in every message as well as in the sender operations', async () => {
		const type = credentialType(await loadPackage(), 'virtualnumSmsApi');
		const accountToken = type.properties.find((p) => p.name === 'accountToken');
		assert.equal(accountToken?.required, undefined);
		assert.equal(accountToken?.typeOptions?.password, true);
		assert.match(String(accountToken?.description), /"token" field of every message sent/);
	});
});
