/**
 * The check of one example node's parameters against the node's description, as n8n's editor
 * reads them: every parameter one the node defines and shows for the chosen resource and
 * operation, valid option values and collection keys, locators in a mode the node has, no issue
 * n8n's editor would flag.
 */
import type { IDataObject, INodeProperties, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { nodeIssuesToString } from '../../dev/harness/n8nCompat.mts';
import { asINode, type ExampleNode } from '../../dev/demo/workflows.mts';

const isExpression = (value: unknown) => typeof value === 'string' && value.startsWith('=');

/** The version n8n gives a node added in the editor: defaultVersion, else the highest version. */
export function newestVersion(description: INodeTypeDescription): number {
	return description.defaultVersion ?? Math.max(...([] as number[]).concat(description.version));
}

/**
 * Problems with one parameter value against its definition: unknown keys of collections and
 * fixed collections, option values the node does not offer, resource locators in a mode it lacks.
 * Expressions are not judged (they are resolved when the workflow runs).
 */
function valueProblems(property: INodeProperties, value: unknown, path: string): string[] {
	if (isExpression(value)) return [];
	const problems: string[] = [];
	switch (property.type) {
		case 'options': {
			const values = (property.options ?? []).map((option) => (option as { value: unknown }).value);
			if (!property.typeOptions?.loadOptionsMethod && !values.includes(value as never))
				problems.push(`${path}: "${String(value)}" is not one of ${values.join(', ')}`);
			break;
		}
		case 'multiOptions': {
			const values = (property.options ?? []).map((option) => (option as { value: unknown }).value);
			if (!Array.isArray(value)) problems.push(`${path}: must be a list`);
			else
				for (const entry of value)
					if (!isExpression(entry) && !values.includes(entry as never))
						problems.push(`${path}: "${String(entry)}" is not one of ${values.join(', ')}`);
			break;
		}
		case 'boolean':
			if (typeof value !== 'boolean') problems.push(`${path}: must be true or false`);
			break;
		case 'number':
			if (typeof value !== 'number') problems.push(`${path}: must be a number`);
			break;
		case 'string':
		case 'dateTime':
			if (typeof value !== 'string') problems.push(`${path}: must be text`);
			break;
		case 'resourceLocator': {
			const locator = value as { __rl?: unknown; mode?: unknown; value?: unknown };
			const modes = (property.modes ?? []).map((mode) => mode.name);
			if (!locator || locator.__rl !== true)
				problems.push(`${path}: a resource locator needs "__rl": true`);
			else if (!modes.includes(String(locator.mode)))
				problems.push(`${path}: mode "${String(locator.mode)}" is not one of ${modes.join(', ')}`);
			else if (typeof locator.value !== 'string' || locator.value === '')
				problems.push(`${path}: no value`);
			break;
		}
		case 'collection': {
			const options = (property.options ?? []) as INodeProperties[];
			for (const [key, entry] of Object.entries((value ?? {}) as IDataObject)) {
				const option = options.find((candidate) => candidate.name === key);
				if (!option)
					problems.push(
						`${path}.${key}: not an option of ${property.displayName} (${options.map((o) => o.name).join(', ')})`,
					);
				else problems.push(...valueProblems(option, entry, `${path}.${key}`));
			}
			break;
		}
		case 'fixedCollection': {
			const groups = (property.options ?? []) as Array<{ name: string; values: INodeProperties[] }>;
			for (const [key, entry] of Object.entries((value ?? {}) as IDataObject)) {
				const group = groups.find((candidate) => candidate.name === key);
				if (!group) {
					problems.push(`${path}.${key}: not a group of ${property.displayName}`);
					continue;
				}
				const rows = Array.isArray(entry) ? entry : [entry];
				rows.forEach((row, index) => {
					for (const [field, fieldValue] of Object.entries((row ?? {}) as IDataObject)) {
						const definition = group.values.find((candidate) => candidate.name === field);
						if (!definition)
							problems.push(`${path}.${key}[${index}].${field}: not a field of ${group.name}`);
						else
							problems.push(
								...valueProblems(definition, fieldValue, `${path}.${key}[${index}].${field}`),
							);
					}
				});
			}
			break;
		}
		default:
			break;
	}
	return problems;
}

/** Every problem with the parameters of one of our nodes. */
export function parameterProblems(node: ExampleNode, description: INodeTypeDescription): string[] {
	const problems: string[] = [];
	const inode = asINode(node);
	// What n8n resolves from the node's values: the parameters shown for them, with defaults.
	const shown =
		NodeHelpers.getNodeParameters(
			description.properties,
			inode.parameters,
			true,
			false,
			inode,
			description,
		) ?? {};
	for (const [key, value] of Object.entries(node.parameters)) {
		const candidates = description.properties.filter((property) => property.name === key);
		if (candidates.length === 0) {
			problems.push(`${key}: the node has no such parameter`);
			continue;
		}
		if (!(key in shown)) {
			problems.push(
				`${key}: not shown for these settings (resource ${String(node.parameters.resource)}, operation ${String(node.parameters.operation)})`,
			);
			continue;
		}
		const displayed = candidates.filter((property) =>
			NodeHelpers.displayParameter(shown, property, inode, description),
		);
		const property = displayed[0] ?? candidates[0];
		problems.push(...valueProblems(property, value, key));
	}
	// The issues n8n's editor would show on the node (required values missing, and so on).
	const issues = NodeHelpers.getNodeParametersIssues(description.properties, inode, description);
	if (issues) problems.push(...nodeIssuesToString(issues, inode));
	return problems;
}
