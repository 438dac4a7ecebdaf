/**
 * Whether a failed update may still have been applied decides what a failed activation puts back
 * (registration.ts rollBack): the failed number too, when its answer was lost. The codes are read
 * through the transport's readers (serviceCodeOf, networkCodeOfFailure), as the transport writes them.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { INode } from 'n8n-workflow';

import { serviceError } from '../../../nodes/shared/transport/http.ts';
import {
	isNotInAccount,
	mayHaveBeenApplied,
} from '../../../nodes/VirtualNumberTrigger/registration.ts';

const node = {
	id: '1',
	name: 'Trigger',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const context = {
	node,
	serviceLabel: 'Virtual Number',
	operation: 'update_virtualnum',
	sideEffect: true,
};
const failure = (data?: Record<string, string | number>, httpCode?: number) =>
	serviceError(context, 'failed', 'why', httpCode, data);

describe('trigger: what a failed update_virtualnum may have done', () => {
	test('a status code the service answered: not applied, except 999 (internal error) and a success that could not be read', () => {
		assert.equal(mayHaveBeenApplied(failure({ code: 4019 })), false);
		assert.equal(mayHaveBeenApplied(failure({ code: 401 }, 401)), false);
		assert.equal(mayHaveBeenApplied(failure({ code: 999 })), true);
		assert.equal(mayHaveBeenApplied(failure({ code: 200 })), true);
	});

	test('no answer: a connection refused or a name not found never reached the service; a timeout or a reset may have', () => {
		for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'])
			assert.equal(mayHaveBeenApplied(failure({ networkCode: code })), false, code);
		for (const code of ['ETIMEDOUT', 'ECONNRESET', 'TIMEOUT'])
			assert.equal(mayHaveBeenApplied(failure({ networkCode: code })), true, code);
	});

	test('an answer without a status: HTTP 5xx or an unreadable body may have been applied; a 4xx was not', () => {
		assert.equal(mayHaveBeenApplied(failure(undefined, 502)), true);
		assert.equal(mayHaveBeenApplied(failure()), true);
		assert.equal(mayHaveBeenApplied(failure(undefined, 404)), false);
	});

	// (The other way of being "not in the account", get_virtualnum finding no record, runs in lifecycle.test.mts.)
	test('"not in the account": code 4019 as the service answered it', () => {
		assert.equal(isNotInAccount(failure({ code: 4019 })), true);
		assert.equal(isNotInAccount(failure({ code: '4019' })), true);
		assert.equal(isNotInAccount(failure({ code: 4018 })), false);
	});
});
