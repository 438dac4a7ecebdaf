/**
 * Issue 16: network failures are told the same on n8n 1.x and 2.x. n8n 2.x's request helper
 * rejects with the axios error (its `code`, or `cause.code`); n8n 1.x wraps it first in a
 * NodeApiError that keeps the code in `httpCode` only, with a message of its own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IExecuteFunctions, INode } from 'n8n-workflow';

import { runWorkflow } from '../../../../dev/harness/engine.mts';
import { sendRequest, type FailureContext } from '../../../../nodes/shared/transport/http.ts';

const node = {
	id: '1',
	name: 'Node',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const failingWith = (error: unknown) =>
	({
		getCredentials: async () => ({ baseUrl: 'http://127.0.0.1:9', accessToken: 'a-token' }),
		helpers: {
			httpRequestWithAuthentication: async () => {
				throw error;
			},
		},
	}) as unknown as IExecuteFunctions;

const send = async (error: unknown, sideEffect: boolean) => {
	const context: FailureContext = {
		node,
		serviceLabel: 'Virtual Number',
		operation: 'create_virtualnum_call',
		sideEffect,
	};
	try {
		await sendRequest.call(
			failingWith(error),
			'virtualnumApi',
			{ url: 'http://127.0.0.1:9/api/', method: 'POST', timeout: 2000 },
			context,
		);
	} catch (failure) {
		return failure as Error & {
			description?: string;
			context?: { data?: Record<string, unknown> };
		};
	}
	throw new Error('sendRequest should have failed');
};

/** The shape n8n-workflow 1.x gives: the axios code only in httpCode, its own message. */
const n8n1 = (httpCode: string, message: string) =>
	Object.assign(new Error(message), { name: 'NodeApiError', httpCode, description: null });

describe('network failures, n8n 1.x and 2.x shapes', () => {
	const refused: Array<[string, unknown]> = [
		[
			'n8n 2.x (code)',
			Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
		],
		[
			'n8n 2.x (cause.code)',
			Object.assign(new Error('Request failed'), { cause: { code: 'ECONNREFUSED' } }),
		],
		[
			'n8n 1.x (httpCode)',
			n8n1('ECONNREFUSED', 'The service refused the connection - perhaps it is offline'),
		],
	];
	for (const [shape, error] of refused) {
		test(`a refused connection on a send (${shape}) never reached the service: it does not say "may have been carried out"`, async () => {
			const failure = await send(error, true);
			assert.match(
				failure.message,
				/Could not reach the Virtual Number service at http:\/\/127\.0\.0\.1:9: the connection was refused/,
			);
			assert.doesNotMatch(String(failure.description), /may have been carried out/);
			assert.match(String(failure.description), /Check the credential's Base URL/);
			assert.equal(failure.context?.data?.networkCode, 'ECONNREFUSED');
		});
	}

	const timeouts: Array<[string, unknown]> = [
		['n8n 2.x', Object.assign(new Error('timeout of 2000ms exceeded'), { code: 'ECONNABORTED' })],
		['n8n 1.x', n8n1('ECONNABORTED', 'The connection was aborted, perhaps the server is offline')],
		[
			'n8n 1.x, ETIMEDOUT',
			n8n1(
				'ETIMEDOUT',
				'The connection timed out, consider setting the Retry on Fail option in the node settings',
			),
		],
	];
	for (const [shape, error] of timeouts) {
		test(`a timeout (${shape}) is told as one, and on a send says it may have been carried out`, async () => {
			const failure = await send(error, true);
			assert.match(failure.message, /did not answer create_virtualnum_call within 2 s/);
			assert.match(String(failure.description), /may have been carried out/);
		});
	}

	test('a reset connection (n8n 1.x) may have reached the service', async () => {
		const failure = await send(n8n1('ECONNRESET', 'socket hang up'), true);
		assert.match(failure.message, /the connection was reset/);
		assert.match(String(failure.description), /may have been carried out/);
	});

	test('through the node (n8n 2.40): Click to Call against a closed port says nothing was carried out', async () => {
		const result = await runWorkflow({
			nodes: [
				{
					name: 'Node',
					type: 'virtualNumber',
					parameters: {
						resource: 'call',
						operation: 'clickToCall',
						virtualnum: { __rl: true, mode: 'id', value: '0722000100' },
						destination: '0501234567',
					},
				},
			],
			credentials: { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 't' } },
		});
		assert.match(String(result.error?.message), /the connection was refused/);
		assert.doesNotMatch(String(result.error?.description), /may have been carried out/);
	});
});
