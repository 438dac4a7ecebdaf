import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { loadPackage } from '../../../dev/harness/engine.mts';
import { resources } from '../../../nodes/VirtualNumber/actions/resources.ts';

async function properties(): Promise<INodeProperties[]> {
	const loader = await loadPackage();
	return (
		loader.getNode('virtualNumber').type as unknown as {
			description: { properties: INodeProperties[] };
		}
	).description.properties;
}

describe('Virtual Number node description', () => {
	test('a parameter name has one type across all operations (values carry over when switching)', async () => {
		const types = new Map<string, Set<string>>();
		for (const property of await properties()) {
			if (property.type === 'notice') continue;
			const set = types.get(property.name) ?? new Set<string>();
			set.add(property.type);
			types.set(property.name, set);
		}
		const mixed = [...types]
			.filter(([, set]) => set.size > 1)
			.map(([name, set]) => `${name}: ${[...set].join('/')}`);
		assert.deepEqual(mixed, []);
	});

	test('every operation of the dropdowns has an action and an implementation', async () => {
		const operations = (await properties()).filter((p) => p.name === 'operation');
		for (const [resource, module] of Object.entries(resources)) {
			const dropdown = operations.find((p) => p.displayOptions?.show?.resource?.includes(resource));
			assert.ok(dropdown, `${resource} has an operation dropdown`);
			for (const option of dropdown.options as INodePropertyOptions[]) {
				assert.ok(option.action, `${resource}.${String(option.value)} has an action`);
				const implementation = (
					module.operations as Record<string, { execute?: unknown; executeBatch?: unknown }>
				)[String(option.value)];
				assert.equal(
					typeof (implementation?.execute ?? implementation?.executeBatch),
					'function',
					`${resource}.${String(option.value)} is implemented`,
				);
			}
		}
	});
});

describe('Virtual Number → list searches', () => {
	test('the node registers the list searches its locators name', async () => {
		const loader = await loadPackage();
		const node = loader.getNode('virtualNumber').type as unknown as {
			methods?: { listSearch?: Record<string, unknown> };
			description: { properties: Array<Record<string, unknown>> };
		};
		const methods = Object.keys(node.methods?.listSearch ?? {});
		const named = new Set<string>();
		const walk = (value: unknown) => {
			if (Array.isArray(value)) value.forEach(walk);
			else if (value && typeof value === 'object') {
				const record = value as Record<string, unknown>;
				if (typeof record.searchListMethod === 'string') named.add(record.searchListMethod);
				Object.values(record).forEach(walk);
			}
		};
		walk(node.description.properties);
		assert.ok(named.size >= 2);
		for (const method of named)
			assert.ok(methods.includes(method), `listSearch.${method} is registered`);
	});
});
