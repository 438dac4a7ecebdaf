/**
 * Resource-locator lists of the account's tags (view_tags, whose `tag_name` filters by "contains"
 * on the service side): by id for the operations that take a tag id, by name for the others.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { viewTags } from '../actions/tag/request';

async function tags(this: ILoadOptionsFunctions, filter?: string): Promise<IDataObject[]> {
	const name = (filter ?? '').trim();
	return await viewTags.call(this, name);
}

function label(tag: IDataObject): string {
	const count = tag.members_count === undefined ? '' : ` (${String(tag.members_count)} numbers)`;
	return `${String(tag.tag_name ?? '')}${count}`;
}

export async function searchTags(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const rows = await tags.call(this, filter);
	return {
		results: rows
			.filter((tag) => tag.tag_id !== undefined)
			.map((tag) => ({ name: label(tag), value: String(tag.tag_id) })),
	};
}

export async function searchTagNames(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const rows = await tags.call(this, filter);
	return {
		results: rows
			.filter((tag) => String(tag.tag_name ?? '') !== '')
			.map((tag) => ({ name: label(tag), value: String(tag.tag_name) })),
	};
}
