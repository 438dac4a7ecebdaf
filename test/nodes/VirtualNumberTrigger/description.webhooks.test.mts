/**
 * The webhooks' fields n8n reads on every request (path, response mode and data): the expression,
 * and the resolver n8n 2.x uses instead when the parameters are static. Both must give the same
 * value for every setting; n8n uses the resolver only when no parameter is dynamic.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject, INode, IWebhookDescription } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { loadPackage, NodeTypes, PACKAGE } from '../../../dev/harness/engine.mts';
import { resolveNatively } from '../../../dev/harness/n8nCompat.mts';
import { selectedNumbers } from '../../../dev/harness/trigger.mts';
import { TRIGGER_WEBHOOKS } from '../../../nodes/VirtualNumberTrigger/description.ts';

const RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

type Resolvers = Record<string, { template: string; resolve: (p: IDataObject) => unknown }>;

const resolversOf = (description: IWebhookDescription) =>
	(description as unknown as Record<symbol, Resolvers>)[RESOLVERS];

const EVENTS = [
	['callStarted'],
	['callStarted', 'callEnded'],
	['callEnded'],
	['smsReceived', 'smsDelivery'],
	['callStarted', 'smsReceived'],
];
const OPTIONS: IDataObject[] = [
	{},
	{ respondWith: 'destination' },
	{ respondWith: 'routeNode', routeDeadlineSec: 5 },
	{ respondWith: 'none' },
	{ secret: 'S3cret&tail/ü' },
	{ secret: 'x', respondWith: 'routeNode' },
	{ secret: '' },
];

/** The trigger as the workflow holds it, its parameters with n8n's defaults applied. */
async function triggerNode(parameters: IDataObject): Promise<{ workflow: Workflow; node: INode }> {
	const nodeTypes = new NodeTypes(await loadPackage());
	const workflow = new Workflow({
		id: 'webhooks-test',
		nodes: [
			{
				id: 'trigger',
				name: 'Trigger',
				type: `${PACKAGE}.virtualNumberTrigger`,
				typeVersion: 1.1,
				position: [0, 0],
				parameters: parameters as INode['parameters'],
			},
		],
		connections: {},
		nodeTypes,
		active: true,
		settings: { timezone: 'UTC' },
	});
	return { workflow, node: workflow.getNode('Trigger')! };
}

const expressionValue = (workflow: Workflow, node: INode, template: string) =>
	workflow.expression.getSimpleParameterValue(node, template, 'webhook', {});

describe('Virtual Number Trigger → webhooks', () => {
	test('every field with an expression also has a resolver, which gives what the expression gives', async () => {
		let compared = 0;
		for (const events of EVENTS)
			for (const options of OPTIONS) {
				const { workflow, node } = await triggerNode({ events, numbers: 'all', options });
				for (const description of TRIGGER_WEBHOOKS) {
					const resolvers = resolversOf(description);
					for (const field of ['path', 'responseMode', 'responseData']) {
						const value = description[field];
						if (typeof value !== 'string' || !value.startsWith('=')) continue;
						assert.equal(resolvers[field]?.template, value, `${field} has its resolver`);
						assert.deepEqual(
							resolvers[field].resolve(node.parameters as IDataObject),
							expressionValue(workflow, node, value),
							`${description.httpMethod} ${field}, events ${events.join('+')}, ${JSON.stringify(options)}`,
						);
						compared++;
					}
				}
			}
		// Two call entries (response mode and data), two SMS entries (path).
		assert.equal(compared, EVENTS.length * OPTIONS.length * 6);
	});

	test('the values: routing modes on the call URL, the SMS URL with its token', async () => {
		const { node } = await triggerNode({
			events: ['callStarted'],
			numbers: 'all',
			options: { respondWith: 'routeNode', secret: 'abc' },
		});
		const [post, , smsPost] = TRIGGER_WEBHOOKS;
		const parameters = node.parameters as IDataObject;
		assert.equal(resolversOf(post).responseMode.resolve(parameters), 'responseNode');
		assert.equal(resolversOf(post).responseData.resolve(parameters), 'noData');
		// sha256("abc"), its first 32 hex digits
		assert.equal(
			resolversOf(smsPost).path.resolve(parameters),
			'sms/ba7816bf8f01cfea414140de5dae2223',
		);
	});

	test('n8n 2.x reads them without its expression engine only when no parameter is dynamic', async (t) => {
		const probe = await triggerNode({ events: ['callStarted'], numbers: 'all', options: {} });
		if (!resolveNatively(probe.node, TRIGGER_WEBHOOKS[0], 'responseMode').resolved) {
			t.skip(
				'this n8n has no webhook description resolvers (n8n 1.x): it evaluates the expressions',
			);
			return;
		}
		const cases: Array<[string, IDataObject, boolean]> = [
			['All Numbers', { events: ['callStarted'], numbers: 'all', options: {} }, true],
			[
				'a Secret written as an expression',
				{ events: ['smsReceived'], numbers: 'all', options: { secret: '={{ "s" }}' } },
				false,
			],
			[
				'Selected Numbers (a resource locator)',
				{
					events: ['callStarted'],
					numbers: 'selected',
					virtualnums: selectedNumbers(['0722000001']),
					options: { respondWith: 'routeNode' },
				},
				false,
			],
		];
		for (const [name, parameters, native] of cases) {
			const { node } = await triggerNode(parameters);
			for (const description of TRIGGER_WEBHOOKS)
				for (const field of Object.keys(resolversOf(description)))
					assert.equal(resolveNatively(node, description, field).resolved, native, name);
		}
	});
});
