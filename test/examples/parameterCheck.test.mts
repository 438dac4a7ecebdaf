/** The example parameter check (parameterCheck.mts) finds what it must. */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import type { IDataObject, INodeType, INodeTypeDescription } from 'n8n-workflow';

import { loadPackage } from '../../dev/harness/engine.mts';
import type { ExampleNode } from '../../dev/demo/workflows.mts';
import { parameterProblems } from './parameterCheck.mts';

let description: INodeTypeDescription;

before(async () => {
	const loader = await loadPackage();
	description = (loader.getNode('virtualNumber').type as INodeType).description;
});

describe('the parameter check itself', () => {
	const node = (parameters: IDataObject): ExampleNode => ({
		id: '00000000-0000-4000-8000-000000000000',
		name: 'N',
		type: 'n8n-nodes-virtualnum.virtualNumber',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	});
	const problems = (parameters: IDataObject) => parameterProblems(node(parameters), description);
	const add = {
		resource: 'blacklist',
		operation: 'add',
		callerNumber: '0501234567',
		scope: 'global',
	};

	test('accepts a valid node', () => {
		assert.deepEqual(problems(add), []);
	});

	test('finds an unknown parameter, a hidden one, a bad option value, a bad collection key, a locator in an unknown mode, a missing required value', () => {
		assert.match(
			problems({ ...add, color: 'red' }).join('\n'),
			/color: the node has no such parameter/,
		);
		assert.match(problems({ ...add, sql: 'SELECT 1' }).join('\n'), /sql: not shown/);
		assert.match(problems({ ...add, scope: 'planet' }).join('\n'), /scope: "planet" is not one of/);
		assert.match(
			problems({ resource: 'cdr', operation: 'query', options: { colour: 1 } }).join('\n'),
			/options\.colour: not an option/,
		);
		assert.match(
			problems({
				resource: 'call',
				operation: 'clickToCall',
				destination: '1',
				virtualnum: { __rl: true, mode: 'url', value: 'x' },
			}).join('\n'),
			/mode "url"/,
		);
		assert.match(
			problems({ resource: 'blacklist', operation: 'add', scope: 'global' }).join('\n'),
			/Caller Number|callerNumber/,
		);
	});
});
