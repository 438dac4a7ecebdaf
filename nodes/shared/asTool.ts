/**
 * The node as an AI agent's tool. n8n makes a `<name>Tool` variant of a node that is usable as a
 * tool; a field the model fills holds a `$fromAI('key', …)` expression, and the model only knows
 * `key` (the argument of the tool call), never the field's display name. So an input check that
 * names a field also names the argument the model filled, and says how to call the tool again.
 *
 * n8n's agent (version 3) hands the model only an error's message, not its description: in a
 * tool, the fix goes into the message.
 */
import type { IDataObject, INode, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { NodeError } from './errors';

/** Whether the node runs as an AI agent's tool (n8n names the variant `<name>Tool`). */
export function runsAsTool(node: INode): boolean {
	return typeof node.type === 'string' && node.type.endsWith('Tool');
}

const FROM_AI = /\$fromAI\(\s*(['"`])([^'"`]+)\1/;

/** The key of the first `$fromAI('key', …)` in a parameter's raw value, if there is one. */
function fromAiKey(raw: unknown): string | undefined {
	if (typeof raw === 'string') return FROM_AI.exec(raw)?.[2];
	// A resource locator keeps its expression in `value`.
	if (raw && typeof raw === 'object' && 'value' in raw)
		return fromAiKey((raw as IDataObject).value);
	return undefined;
}

/** The raw values of every field of `properties` shown as `field`, at top level or in a collection. */
function rawValuesOf(
	field: string,
	properties: INodeProperties[],
	parameters: IDataObject,
): unknown[] {
	const values: unknown[] = [];
	for (const property of properties) {
		if (property.displayName === field) values.push(parameters[property.name]);
		if (property.type !== 'collection' || !Array.isArray(property.options)) continue;
		const inner = parameters[property.name];
		if (!inner || typeof inner !== 'object') continue;
		for (const option of property.options as INodeProperties[])
			if (option.displayName === field) values.push((inner as IDataObject)[option.name]);
	}
	return values;
}

/** The argument the model filled for the field shown as `field`, if the model fills it. */
function aiArgumentOf(
	node: INode,
	properties: INodeProperties[],
	field: string,
): string | undefined {
	for (const raw of rawValuesOf(field, properties, node.parameters)) {
		const key = fromAiKey(raw);
		if (key) return key;
	}
	return undefined;
}

/** The field an input check named (see InputChecks.fail and withErrorDetails). */
function fieldOf(details: unknown): string | undefined {
	const field = (details as IDataObject | undefined)?.field;
	return typeof field === 'string' ? field : undefined;
}

/** A check's message (`To: …`) with the argument the model filled named beside the field. */
function namingArgument(message: string, field: string, argument: string): string {
	const named = `The argument "${argument}" (the ${field} field)`;
	return message.startsWith(`${field}: `)
		? `${named}: ${message.slice(field.length + 2)}`
		: `${named}: ${message}`;
}

const fixFor = (argument: string) => `Call the tool again with a corrected "${argument}" argument.`;

/**
 * The error as the model needs it: the argument it filled named beside the field
 * (`The argument "to" (the To field): …`) and, in a tool, the fix in the message itself.
 */
export function forTheModel(
	error: NodeError,
	node: INode,
	properties: INodeProperties[],
): NodeError {
	const field = fieldOf(error.context.errorDetails);
	const argument = field === undefined ? undefined : aiArgumentOf(node, properties, field);
	if (field !== undefined && argument !== undefined) {
		error.message = namingArgument(error.message, field, argument);
		error.description = fixFor(argument);
		error.context.errorDetails = {
			...(error.context.errorDetails as IDataObject),
			argument,
		};
	}
	if (runsAsTool(node) && error.description && !error.message.includes(error.description))
		error.message = `${error.message.replace(/\.$/, '')}. ${error.description}`;
	return error;
}

/**
 * An error item an operation built itself (Send checks all items before its batches) as the model
 * needs it under Continue On Fail: the argument named, the fix in `errorDescription`.
 */
export function errorItemForTheModel(
	item: INodeExecutionData,
	node: INode,
	properties: INodeProperties[],
): INodeExecutionData {
	const { error, errorDetails } = item.json;
	const field = fieldOf(errorDetails);
	// Items of per-item operations were named already (forTheModel): their details carry the argument.
	if (
		typeof error !== 'string' ||
		field === undefined ||
		'argument' in (errorDetails as IDataObject)
	)
		return item;
	const argument = aiArgumentOf(node, properties, field);
	if (argument === undefined) return item;
	const json = {
		...item.json,
		error: namingArgument(error, field, argument),
		errorDescription: fixFor(argument),
		errorDetails: { ...(errorDetails as IDataObject), argument },
	};
	return { ...item, json };
}

// ---- What the model is told, and what it reads back ------------------------------------------

/** Per operation: what the model is told the tool does, as n8n's own Description field of a tool. */
export function toolDescriptionField(
	resource: string,
	operation: string,
	text: string,
): INodeProperties {
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		required: true,
		typeOptions: { rows: 4 },
		description:
			'What the model is told this tool does. Prefilled for the chosen operation (its cost, the phone formats ' +
			'it accepts, what it returns); change it to tell the model more.',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
}

/** Per operation that has a compact tool output: the switch to give the model every field instead. */
export function toolAllFieldsField(resource: string, operation: string): INodeProperties {
	return {
		displayName: 'Return All Fields',
		name: 'toolAllFields',
		type: 'boolean',
		default: false,
		description:
			'Whether to give the model every field the service returns, instead of the fields that ' +
			'matter for answering (fewer tokens, same facts)',
		displayOptions: { show: { '@tool': [true], resource: [resource], operation: [operation] } },
	};
}

/** Whether a value says nothing (a model reads it as noise): '', null, undefined. */
function isEmpty(value: unknown): boolean {
	return value === '' || value === null || value === undefined;
}

/** The named fields of a record that hold something, in the order named. */
export function pickFields(json: IDataObject, keys: readonly string[]): IDataObject {
	const out: IDataObject = {};
	for (const key of keys) if (!isEmpty(json[key])) out[key] = json[key];
	return out;
}

/** A record without its empty fields and without `dropped`. */
export function withoutEmptyFields(
	json: IDataObject,
	dropped: readonly string[] = [],
): IDataObject {
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(json))
		if (!isEmpty(value) && !dropped.includes(key)) out[key] = value;
	return out;
}
