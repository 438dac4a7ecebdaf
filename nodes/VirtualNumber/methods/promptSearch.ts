/** Resource-locator list of the account's voice prompts (get_prompts_list), filtered on the name. */
import type { IDataObject, ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { virtualnumRequest } from '../../shared/transport/virtualnumApi';

export async function searchPrompts(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const answer = await virtualnumRequest.call(this, {
		service: 'get_prompts_list',
		noResultsAsEmpty: true,
	});
	const prompts = Array.isArray(answer.result) ? (answer.result as IDataObject[]) : [];
	const needle = (filter ?? '').trim().toLowerCase();
	const results = prompts
		.map((prompt) => String(prompt.name ?? ''))
		.filter((name) => name !== '' && (!needle || name.toLowerCase().includes(needle)))
		.map((name) => ({ name, value: name }));
	return { results };
}
