/**
 * What n8n's AI workflow builder learns about the four nodes: each node's `builderHint` (what to search
 * for, the related nodes) and the parameter hints on the fields it fills from earlier nodes. The last
 * test runs the builder's own node search (`@n8n/ai-utilities` of the e2e install of n8n) over the
 * nodes as n8n loads them, beside n8n's Data Table and AI Agent, and reads what it prints.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import type { INodeProperties, INodeTypeDescription, IVersionedNodeType } from 'n8n-workflow';

import { loadPackage } from '../../../dev/harness/engine.mts';
import { E2E_MODULES, installStatus } from '../../../dev/harness/n8nInstall.mts';

const PACKAGE = 'n8n-nodes-virtualnum';
const NODES = [
	'bulkSms',
	'virtualNumber',
	'virtualNumberTrigger',
	'virtualNumberCallRecordTrigger',
];
const DATA_TABLE = 'n8n-nodes-base.dataTable';
const AGENT = '@n8n/n8n-nodes-langchain.agent';

/** Every version's description of a node, as n8n loads the package. */
async function descriptions(name: string): Promise<INodeTypeDescription[]> {
	const type = (await loadPackage()).getNode(name).type;
	const versioned = (type as IVersionedNodeType).nodeVersions;
	return versioned
		? Object.values(versioned).map((node) => node.description)
		: [(type as { description: INodeTypeDescription }).description];
}

/** The parameters named `name` anywhere in a node's properties (also inside collections). */
function parametersNamed(properties: INodeProperties[], name: string): INodeProperties[] {
	const found: INodeProperties[] = [];
	const visit = (list: unknown[] | undefined) => {
		for (const entry of (list ?? []) as INodeProperties[]) {
			if (entry.name === name && 'type' in entry) found.push(entry);
			visit(entry.options as unknown[] | undefined);
			visit((entry as { values?: unknown[] }).values);
		}
	};
	visit(properties);
	return found;
}

describe('builderHint: what n8n’s AI workflow builder reads', () => {
	for (const name of NODES) {
		test(`${name}: a search hint and its related nodes, on every version`, async () => {
			for (const description of await descriptions(name)) {
				const hint = description.builderHint;
				assert.ok(hint?.searchHint && hint.searchHint.length >= 80, `${name}: searchHint`);
				const related = (hint.relatedNodes ?? []).map((entry) => entry.nodeType);
				const others = NODES.filter((other) => other !== name).map((n) => `${PACKAGE}.${n}`);
				assert.deepEqual(
					[...related].sort(),
					[...others, DATA_TABLE, AGENT].sort(),
					`${name}: related nodes are the other three nodes, Data Table and AI Agent`,
				);
				for (const entry of hint.relatedNodes ?? [])
					assert.ok(entry.relationHint.length >= 30, `${name}: why ${entry.nodeType} is related`);
			}
		});
	}

	for (const [node, parameter] of [
		['bulkSms', 'to'],
		['bulkSms', 'message'],
		['virtualNumberTrigger', 'events'],
		['virtualNumberCallRecordTrigger', 'virtualNumbers'],
	] as const) {
		test(`${node} → ${parameter}: a parameter hint for the builder`, async () => {
			for (const description of await descriptions(node)) {
				const found = parametersNamed(description.properties, parameter);
				assert.ok(found.length > 0, `${node} has a parameter ${parameter}`);
				for (const property of found)
					assert.ok(
						(property.builderHint?.propertyHint.length ?? 0) >= 40,
						`${node} → ${parameter} (${property.displayName}) has a propertyHint`,
					);
			}
		});
	}
});

describe('the AI builder’s node search (n8n’s own code, from the e2e install)', () => {
	const status = installStatus(['@n8n/ai-utilities', 'n8n-nodes-base', '@n8n/n8n-nodes-langchain']);
	const skip = status.available ? false : status.reason;

	/** n8n's builder catalog over the package's nodes, Data Table and AI Agent (named as n8n names them). */
	async function catalog() {
		const require = createRequire(join(E2E_MODULES, 'package.json'));
		const dir = join(E2E_MODULES, '@n8n', 'ai-utilities', 'dist', 'cjs', 'node-catalog');
		const { NodeTypeParser } = require(join(dir, 'node-type-parser.js')) as {
			NodeTypeParser: new (types: INodeTypeDescription[]) => unknown;
		};
		const search = require(join(dir, 'search.js')) as {
			formatNodeResult: (parser: unknown, id: string) => string | undefined;
			searchCodeBuilderNodes: (parser: unknown, queries: string[]) => { results: string };
		};
		const installed = (pkg: string, name: string) =>
			(require(join(E2E_MODULES, pkg, 'dist', 'types', 'nodes.json')) as INodeTypeDescription[])
				.filter((type) => type.name === name)
				.map((type) => ({ ...type, name: `${pkg}.${name}` }));
		const own = (await Promise.all(NODES.map(descriptions))).flatMap((list, index) =>
			list.map((description) => ({ ...description, name: `${PACKAGE}.${NODES[index]}` })),
		);
		const types = [
			...own,
			...installed('n8n-nodes-base', 'dataTable'),
			...installed('@n8n/n8n-nodes-langchain', 'agent'),
		];
		return { parser: new NodeTypeParser(types), search, types };
	}

	test(
		'Data Table and AI Agent are node types of n8n under the names the hints use',
		{ skip },
		async () => {
			const { types } = await catalog();
			for (const id of [DATA_TABLE, AGENT])
				assert.ok(
					types.some((type) => type.name === id),
					`${id} is a node type of the installed n8n`,
				);
		},
	);

	test('each node’s entry shows its @builderHint and @relatedNodes', { skip }, async () => {
		const { parser, search } = await catalog();
		for (const name of NODES) {
			const entry = search.formatNodeResult(parser, `${PACKAGE}.${name}`) ?? '';
			const [description] = await descriptions(name);
			assert.ok(
				entry.includes(`@builderHint ${description.builderHint!.searchHint}`),
				`${name}:\n${entry}`,
			);
			assert.match(entry, /@relatedNodes\n(\s+- .+\n){4}\s+- .+/, `${name}:\n${entry}`);
		}
	});

	test(
		'searching "send sms" and "phone call trigger" finds the nodes, with their hints',
		{ skip },
		async () => {
			const { parser, search } = await catalog();
			const sms = search.searchCodeBuilderNodes(parser, ['send sms']).results;
			assert.match(sms, /- n8n-nodes-virtualnum\.bulkSms\n[\s\S]*?@builderHint SMS through/);
			const calls = search.searchCodeBuilderNodes(parser, ['phone call trigger']).results;
			assert.match(calls, /- n8n-nodes-virtualnum\.virtualNumberTrigger \[TRIGGER\]/);
		},
	);
});
