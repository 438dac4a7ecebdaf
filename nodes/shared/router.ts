/**
 * The router of both action nodes: finds the operation of the node's Resource and Operation and
 * runs it under n8n's settings (Continue On Fail, Retry On Fail).
 *
 * An operation module exports `description` and one of:
 * - `execute(itemIndex)`: runs once per input item. The router pairs its output to the item and
 *   turns a failure into the item's error item (Continue On Fail) or the node's error.
 * - `executeBatch()`: runs once for all items (Bulk SMS Send batches the recipients of every item
 *   into shared requests). It returns every output item paired to its input item, its failures
 *   as error items built with `errorItem` (nodes/shared/errors.ts), and throws only when the node
 *   must stop.
 *
 * and, when running it again would repeat something in the world (send, charge, place a call),
 * `repeatEffect`: the router then refuses to run while Retry On Fail is on (see `RepeatEffect`).
 *
 * As an AI agent's tool (the `<name>Tool` variant, nodes/shared/asTool.ts) an operation may also
 * export `toolDescription` (what the model is told) and `toolOutput` (its items as a model reads
 * them); the router turns its errors into errors the model can act on.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	errorItemForTheModel,
	forTheModel,
	runsAsTool,
	toolAllFieldsField,
	toolDescriptionField,
} from './asTool';
import { asNodeError, errorItem, type NodeError, withItemsProgress } from './errors';
import { itemsWithSafeKeys } from './outputKeys';

/** An operation that runs once per input item. */
export type ItemOperation = (
	this: IExecuteFunctions,
	itemIndex: number,
) => Promise<INodeExecutionData[]>;

/** An operation that runs once for all input items and pairs its output itself. */
type BatchOperation = (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;

/**
 * Declared by an operation whose repetition sends, charges or places something. n8n's Retry On
 * Fail runs the whole node again after a failure, the items that already succeeded included (and,
 * with Continue On Fail, whenever the first output item is an error item): a call would be
 * placed twice. So while Retry On Fail is on, the router refuses before any request.
 */
export interface RepeatEffect {
	/** What a repeated run would do again, in the user's words, e.g. "place the call again". */
	what: string;
	/**
	 * Replaces the refusal while Retry On Fail is on, for an operation that can make a repeated run
	 * safe itself (it must never repeat what the service may have carried out). Return to run; throw
	 * to refuse in the operation's own words.
	 */
	whenRetryOnFail?: (this: IExecuteFunctions) => Promise<void> | void;
}

/** An operation's entry in the Operation dropdown; its value is the operation's key in its resource. */
export interface OperationOption {
	name: string;
	description: string;
	action: string;
}

/** What every operation module (`<resource>/<name>.operation.ts`) exports. */
interface OperationModule {
	/** The Operation dropdown's entry; its value is the operation's key in its resource's `operations`. */
	option: OperationOption;
	/** The operation's fields, shown for its resource and operation (`updateDisplayOptions`). */
	description: INodeProperties[];
	execute?: ItemOperation;
	executeBatch?: BatchOperation;
	/** Set when Retry On Fail would repeat what the operation did: the router refuses to run while it is on. */
	repeatEffect?: RepeatEffect;
	/**
	 * What the model is told the operation does when the node is an AI agent's tool (its cost, the
	 * phone formats it takes, what it returns); the Operation option's action and description when not set.
	 */
	toolDescription?: string;
	/**
	 * An output item's JSON as a model needs it (the fields that matter) when the node is a tool;
	 * the tool's Return All Fields switch gives every field instead. Outside a tool, never used.
	 */
	toolOutput?: (json: IDataObject) => IDataObject;
	/** Set when the operation has no use as an AI agent's tool: the tool variant does not offer it. */
	notAsTool?: boolean;
}

/**
 * A resource (`actions/<resource>/index.ts`): its operations by their Operation value, and the
 * fields derived from them by `operationProperties`.
 */
interface Resource {
	operations: Record<string, OperationModule>;
	description: INodeProperties[];
}

/**
 * A resource's Operation dropdown, derived from its operations (sorted by name, as n8n lists
 * options), then every operation's fields: adding an operation is adding its module to the list.
 */
export function operationProperties(
	resource: string,
	defaultOperation: string,
	operations: Record<string, OperationModule>,
): INodeProperties[] {
	const options: INodePropertyOptions[] = Object.entries(operations)
		.map(([value, module]) => ({
			...module.option,
			value,
			...(module.notAsTool ? { displayOptions: { hide: { '@tool': [true] } } } : {}),
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
	return [
		{
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			options,
			default: defaultOperation,
		},
		...Object.entries(operations)
			.filter(([, module]) => !module.notAsTool)
			.flatMap(([value, module]) => toolFields(resource, value, module)),
		...Object.values(operations).flatMap((module) => module.description),
	];
}

/** The fields a tool variant shows for one operation: what the model is told, and Return All Fields. */
function toolFields(
	resource: string,
	operation: string,
	module: OperationModule,
): INodeProperties[] {
	const told = module.toolDescription ?? `${module.option.action}: ${module.option.description}`;
	return [
		toolDescriptionField(resource, operation, told),
		...(module.toolOutput ? [toolAllFieldsField(resource, operation)] : []),
	];
}

/** An action node's Resource dropdown (a node may show a variant of it per version). */
export function resourceField(
	options: INodePropertyOptions[],
	defaultResource: string,
): INodeProperties {
	return {
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options,
		default: defaultResource,
	};
}

/** The properties of an action node: its Resource dropdown, then every resource's fields. */
export function resourceProperties(
	resourceFields: INodeProperties[],
	resources: Record<string, Resource>,
): INodeProperties[] {
	return [
		...resourceFields,
		...Object.values(resources).flatMap((resource) => resource.description),
	];
}

/** Runs the node's operation on all input items: the `execute` of both action nodes. */
export async function routeOperation(
	this: IExecuteFunctions,
	resources: Record<string, Resource>,
): Promise<INodeExecutionData[][]> {
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = findOperation.call(this, resources, resource, operation);
	if (module.repeatEffect && this.getNode().retryOnFail === true) {
		const refused = await guardRetryOnFail.call(this, module.repeatEffect);
		if (refused) return [refused];
	}
	let output: INodeExecutionData[];
	try {
		output = module.executeBatch
			? await module.executeBatch.call(this)
			: await runPerItem.call(this, module.execute as ItemOperation, module.description);
	} catch (error) {
		throw forTheModel(asNodeError(this.getNode(), error), this.getNode(), module.description);
	}
	return [itemsWithSafeKeys(forToolOutput.call(this, module, output))];
}

/**
 * In a tool: each item as the operation gives it to a model (unless Return All Fields is on),
 * error items naming the argument the model filled.
 */
function forToolOutput(
	this: IExecuteFunctions,
	module: OperationModule,
	output: INodeExecutionData[],
): INodeExecutionData[] {
	const node = this.getNode();
	if (!runsAsTool(node)) return output;
	const compact =
		this.getNodeParameter('toolAllFields', 0, false) === true ? undefined : module.toolOutput;
	return output.map((item) => {
		if (item.json.error !== undefined) return errorItemForTheModel(item, node, module.description);
		return compact ? { ...item, json: compact(item.json) } : item;
	});
}

function findOperation(
	this: IExecuteFunctions,
	resources: Record<string, Resource>,
	resource: string,
	operation: string,
): OperationModule {
	const module = resources[resource]?.operations[operation];
	if (typeof module?.execute !== 'function' && typeof module?.executeBatch !== 'function') {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return module;
}

/**
 * An operation with a repeat effect does not run under Retry On Fail unless it handles it itself.
 * Refused before any request: the node's error, or under Continue On
 * Fail one error item per input item (so nothing passes on as if it had been done).
 */
async function guardRetryOnFail(
	this: IExecuteFunctions,
	effect: RepeatEffect,
): Promise<INodeExecutionData[] | undefined> {
	let refusal: NodeError;
	try {
		if (effect.whenRetryOnFail) {
			await effect.whenRetryOnFail.call(this);
			return undefined;
		}
		refusal = new NodeOperationError(
			this.getNode(),
			`Retry On Fail is on, and a retried run would ${effect.what}: nothing was sent`,
			{
				description:
					"n8n's Retry On Fail runs the whole node again after a failure, the items " +
					'that already succeeded included (and with Continue On Fail whenever the ' +
					'first item failed), so what the service carried out would be repeated. ' +
					"Turn off Retry On Fail in the node's Settings. To try failed items again, " +
					'set On Error to "Continue (using error output)" and send the error output ' +
					'back to this node after a Wait node.',
			},
		);
	} catch (error) {
		refusal = asNodeError(this.getNode(), error);
	}
	if (!this.continueOnFail()) throw refusal;
	return this.getInputData().map((_, itemIndex) => errorItem(this.getNode(), refusal, itemIndex));
}

/** Runs `execute` for every item: output paired to its item, Continue On Fail turning failures into error items. */
async function runPerItem(
	this: IExecuteFunctions,
	execute: ItemOperation,
	properties: INodeProperties[],
): Promise<INodeExecutionData[]> {
	const items = this.getInputData();
	const node = this.getNode();
	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const output = await execute.call(this, itemIndex);
			returnData.push(
				...this.helpers.constructExecutionMetaData(output, { itemData: { item: itemIndex } }),
			);
		} catch (error) {
			if (!this.continueOnFail())
				throw withItemsProgress(
					asNodeError(node, error, itemIndex),
					itemIndex,
					items.length,
					returnData,
				);
			returnData.push(
				errorItem(
					node,
					forTheModel(asNodeError(node, error, itemIndex), node, properties),
					itemIndex,
				),
			);
		}
	}
	return returnData;
}
