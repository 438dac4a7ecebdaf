/**
 * Requests of the tag operations. The spec names them but shows no parameters, results or codes:
 * the parameter names are the sandbox's (sandbox/README.md), every operation also sends the
 * user's Additional Parameters, and the views' "no results" code (5009, NO_RESULT_CODES) is an
 * empty list.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { RequestContext } from '../../../shared/transport/http';
import { virtualnumRequest, type VirtualnumAnswer } from '../../../shared/transport/virtualnumApi';
import { resultRows } from '../../../shared/virtualnums';
import { writeOutput } from '../../helpers/utils';
import { readTagId } from './fields';

/** Parameters the node itself sends; an additional parameter may not replace them. */
const RESERVED = ['service', 'format'];

async function tagRequest(
	this: RequestContext,
	service: string,
	params: IDataObject,
	options: { itemIndex?: number; write?: boolean; emptyOnNoResults?: boolean } = {},
): Promise<VirtualnumAnswer> {
	return await virtualnumRequest.call(this, {
		service,
		params,
		itemIndex: options.itemIndex,
		method: options.write ? 'POST' : 'GET',
		sideEffect: options.write,
		noResultsAsEmpty: options.emptyOnNoResults,
	});
}

/** Tags whose name contains `name` (all tags when empty). */
export async function viewTags(
	this: RequestContext,
	name: string,
	options: {
		itemIndex?: number;
		service?: 'view_tags' | 'view_tag_by_name';
		extra?: IDataObject;
	} = {},
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
function additionalParameters(
	this: IExecuteFunctions,
	checks: InputChecks,
	own: IDataObject,
): IDataObject {
	const collection = this.getNodeParameter('additionalParameters', checks.itemIndex, {}) as {
		parameter?: Array<{ name?: string; value?: unknown }>;
	};
	const extra: IDataObject = {};
	for (const [index, entry] of (collection.parameter ?? []).entries()) {
		const name = String(entry.name ?? '').trim();
		const field = `Additional Parameters › Parameter ${index + 1} › Name`;
		if (name === '') checks.fail(field, 'is required and cannot be empty');
		if (RESERVED.includes(name.toLowerCase()))
			checks.fail(
				field,
				`"${name}" is set by the node and cannot be sent as an additional parameter`,
				name,
			);
		if (Object.prototype.hasOwnProperty.call(own, name)) {
			checks.fail(
				field,
				`"${name}" is already set by a field of this operation: set it there`,
				name,
			);
		}
		if (Object.prototype.hasOwnProperty.call(extra, name))
			checks.fail(field, `"${name}" is given twice`, name);
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
	checks: InputChecks,
	service: string,
	params: IDataObject,
	kind: 'list' | 'write',
	echo: IDataObject = {},
): Promise<IDataObject[]> {
	const extra = additionalParameters.call(this, checks, params);
	const answer = await tagRequest.call(
		this,
		service,
		{ ...extra, ...params },
		{
			itemIndex: checks.itemIndex,
			write: kind === 'write',
			emptyOnNoResults: kind === 'list',
		},
	);
	return kind === 'list' ? resultRows(answer.result) : [writeOutput(answer, echo)];
}

/** A view of one tag chosen by ID (its record, its members): one item per row. */
export async function viewTagById(
	this: IExecuteFunctions,
	itemIndex: number,
	service: string,
): Promise<IDataObject[]> {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const tagId = readTagId.call(this, checks);
	return await runTagOperation.call(this, checks, service, { tag_id: tagId }, 'list');
}
