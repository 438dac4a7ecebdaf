/**
 * Requests of the tag operations. The spec names them but shows no parameters, results or codes:
 * the parameter names are the sandbox's (sandbox/README.md), every operation also sends the
 * user's Additional Parameters, and the "no results" code (5009) of the views is an empty list.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { asNodeError } from '../../../shared/errors';
import type { RequestContext } from '../../../shared/transport/http';
import { virtualnumRequest, type VirtualnumAnswer } from '../../../shared/transport/virtualnumApi';
import { resultRows, writeOutput } from '../user/fields';

/** Code of the tag views when nothing matched (assumed: the spec shows no 5xxx codes). */
export const TAG_NO_RESULTS = 5009;

/** Parameters the node itself sends; an additional parameter may not replace them. */
const RESERVED = ['service', 'format'];

export async function tagRequest(
	this: RequestContext,
	service: string,
	params: IDataObject,
	options: { itemIndex?: number; write?: boolean; emptyOnNoResults?: boolean } = {},
): Promise<VirtualnumAnswer> {
	try {
		return await virtualnumRequest.call(this, {
			service,
			params,
			itemIndex: options.itemIndex,
			method: options.write ? 'POST' : 'GET',
			sideEffect: options.write,
		});
	} catch (error) {
		if (options.emptyOnNoResults && error instanceof NodeApiError && Number(error.context.data && (error.context.data as IDataObject).code) === TAG_NO_RESULTS) {
			return { service, status: { code: TAG_NO_RESULTS, description: '' }, result: [], answer: {} };
		}
		throw asNodeError(this.getNode(), error, options.itemIndex);
	}
}

/** Tags whose name contains `name` (all tags when empty). */
export async function viewTags(
	this: RequestContext,
	name: string,
	options: { itemIndex?: number; service?: 'view_tags' | 'view_tag_by_name'; extra?: IDataObject } = {},
): Promise<IDataObject[]> {
	const answer = await tagRequest.call(
		this,
		options.service ?? 'view_tags',
		{ ...options.extra, ...(name ? { tag_name: name } : {}) },
		{ itemIndex: options.itemIndex, emptyOnNoResults: true },
	);
	return resultRows(answer.result);
}

/**
 * The Additional Parameters of an item, checked: names must be unique, non-empty, and must not
 * replace what the node sends itself (its own fields, `service`, `format`).
 */
export function additionalParameters(
	this: IExecuteFunctions,
	itemIndex: number,
	check: InputChecks,
	own: IDataObject,
): IDataObject {
	const collection = this.getNodeParameter('additionalParameters', itemIndex, {}) as {
		parameter?: Array<{ name?: string; value?: unknown }>;
	};
	const extra: IDataObject = {};
	for (const [index, entry] of (collection.parameter ?? []).entries()) {
		const name = String(entry.name ?? '').trim();
		const field = `Additional Parameters › Parameter ${index + 1} › Name`;
		if (name === '') check.fail(field, 'is required and cannot be empty');
		if (RESERVED.includes(name.toLowerCase())) check.fail(field, `"${name}" is set by the node and cannot be sent as an additional parameter`, name);
		if (Object.prototype.hasOwnProperty.call(own, name)) {
			check.fail(field, `"${name}" is already set by a field of this operation: set it there`, name);
		}
		if (Object.prototype.hasOwnProperty.call(extra, name)) check.fail(field, `"${name}" is given twice`, name);
		extra[name] = entry.value === undefined || entry.value === null ? '' : String(entry.value);
	}
	return extra;
}

/**
 * One tag operation for one item: the operation's own parameters plus the Additional Parameters.
 * `list` operations output one item per row (none when nothing matched); `write` operations
 * output what was asked and the service's result.
 */
export async function runTagOperation(
	this: IExecuteFunctions,
	check: InputChecks,
	service: string,
	params: IDataObject,
	kind: 'list' | 'write',
	echo: IDataObject = {},
): Promise<IDataObject[]> {
	const extra = additionalParameters.call(this, check.itemIndex, check, params);
	const answer = await tagRequest.call(this, service, { ...extra, ...params }, {
		itemIndex: check.itemIndex,
		write: kind === 'write',
		emptyOnNoResults: kind === 'list',
	});
	return kind === 'list' ? resultRows(answer.result) : [writeOutput(answer, echo)];
}
