/**
 * The SMS transport's readers: which result counts as sent, and which failed batch certainly never
 * reached the service (so that Send may send it again under Retry On Fail), on the error shapes of
 * n8n 1.x and 2.x.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { neverReachedService } from '../../../../nodes/shared/errors.ts';
import {
	sendRequest,
	serviceError,
	type FailureContext,
} from '../../../../nodes/shared/transport/http.ts';
import { isSmsSent } from '../../../../nodes/shared/transport/smsApi.ts';

const node = {
	id: '1',
	name: 'Node',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const context: FailureContext = {
	node,
	serviceLabel: 'Bulk SMS',
	operation: 'send_sms',
	sideEffect: true,
};

/** The error sendRequest makes of what n8n's HTTP helper threw. */
async function networkFailure(thrown: unknown): Promise<unknown> {
	const failing = {
		getCredentials: async () => ({ baseUrl: 'http://127.0.0.1:9', accessToken: 'a-token' }),
		helpers: { httpRequestWithAuthentication: async () => Promise.reject(thrown) },
	} as unknown as IExecuteFunctions;
	try {
		await sendRequest.call(
			failing,
			'virtualnumSmsApi',
			{ url: 'http://127.0.0.1:9/api/ws_json_bulk.php', method: 'POST' },
			context,
		);
	} catch (error) {
		return error;
	}
	throw new Error('sendRequest should have failed');
}

const n8n1 = (httpCode: string, message: string) =>
	Object.assign(new Error(message), { name: 'NodeApiError', httpCode, description: null });
const n8n2 = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('SMS transport', () => {
	test('a result counts as sent with a message id and a status that is not an error', () => {
		assert.equal(isSmsSent({ status: 'Message in Action', message_id: 5 }), true);
		assert.equal(isSmsSent({ status: 'Queued', message_id: '77' }), true);
		assert.equal(isSmsSent({ status: 'Error - 403 Forbidden', description: 'x' }), false);
		assert.equal(isSmsSent({ status: 'Error - 500', message_id: 5 }), false);
		assert.equal(isSmsSent({ status: 'Message in Action' }), false);
	});

	const cases: Array<[string, () => Promise<unknown> | unknown, boolean]> = [
		[
			'a refused connection (n8n 2.x)',
			() => networkFailure(n8n2('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9')),
			true,
		],
		[
			'a refused connection (n8n 1.x)',
			() => networkFailure(n8n1('ECONNREFUSED', 'The service refused the connection')),
			true,
		],
		[
			'an unknown host (n8n 2.x)',
			() => networkFailure(n8n2('ENOTFOUND', 'getaddrinfo ENOTFOUND sms.example')),
			true,
		],
		[
			'a 401 (answered before the batch is read)',
			() => serviceError(context, 'refused', 'x', 401),
			true,
		],
		['a reset connection', () => networkFailure(n8n2('ECONNRESET', 'socket hang up')), false],
		['a timeout', () => networkFailure(n8n2('ECONNABORTED', 'timeout of 60000ms exceeded')), false],
		['an unknown network failure', () => networkFailure(new Error('boom')), false],
		['an HTTP 500', () => serviceError(context, 'failed', 'x', 500), false],
		['a 403', () => serviceError(context, 'refused', 'x', 403), false],
		[
			'an answer that cannot be read (HTTP 200)',
			() => serviceError(context, 'cut off', 'x', 200),
			false,
		],
	];
	for (const [name, make, never] of cases) {
		test(`${name}: ${never ? 'never reached the service' : 'may have reached the service'}`, async () => {
			assert.equal(neverReachedService(await make()), never);
		});
	}
});
