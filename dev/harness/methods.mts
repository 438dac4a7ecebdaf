/** Runs a node's editor methods (list searches, load options) as the n8n editor does, with a real LoadOptionsContext. */
import { LoadOptionsContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INode,
	INodeType,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import { additionalDataFor, loadPackage, NodeTypes, PACKAGE } from './engine.mts';

export interface MethodCall {
	/** The node's short type, e.g. `virtualNumber`. */
	nodeType: string;
	kind: 'listSearch' | 'loadOptions';
	method: string;
	credentials: Record<string, ICredentialDataDecryptedObject>;
	args?: unknown[];
	/** The node's parameters while the method runs (what the editor has filled in so far). */
	parameters?: IDataObject;
	timezone?: string;
	/** What n8n hands the editor beyond the defaults. */
	additionalData?: Partial<IWorkflowExecuteAdditionalData>;
}

export async function callNodeMethod<T>(call: MethodCall): Promise<T> {
	const loader = await loadPackage();
	const nodeTypes = new NodeTypes(loader);
	const type = loader.getNode(call.nodeType).type as INodeType;
	const node: INode = {
		id: 'editor-node',
		name: type.description.defaults.name ?? call.nodeType,
		type: `${PACKAGE}.${call.nodeType}`,
		typeVersion: 1,
		position: [0, 0],
		parameters: (call.parameters ?? {}) as INode['parameters'],
		credentials: Object.fromEntries(
			Object.keys(call.credentials).map((name) => [name, { id: `${name}-id`, name }]),
		),
	};
	const workflow = new Workflow({
		id: 'editor-workflow',
		nodes: [node],
		connections: {},
		nodeTypes,
		active: false,
		settings: { timezone: call.timezone ?? 'UTC' },
	});
	const context = new LoadOptionsContext(
		workflow,
		node,
		{ ...additionalDataFor(loader, call.credentials), ...call.additionalData },
		'parameters',
	);
	const fn = (
		type.methods?.[call.kind] as Record<string, (...args: unknown[]) => Promise<T>> | undefined
	)?.[call.method];
	if (!fn) throw new Error(`${call.nodeType} has no ${call.kind}.${call.method}`);
	return await fn.call(context, ...(call.args ?? []));
}
