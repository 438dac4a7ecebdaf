/** The voice prompt locator (list from get_prompts_list, or a name) and its value. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { locatorValue } from '../../helpers/utils';
import { PROMPT_NAME_PATTERN } from './files';

export const promptRLC: INodeProperties = {
	displayName: 'Voice Prompt',
	name: 'promptName',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The prompt, chosen from the list or by its name',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a prompt...',
			typeOptions: { searchListMethod: 'searchPrompts', searchable: true },
		},
		{
			displayName: 'By Name',
			name: 'name',
			type: 'string',
			placeholder: 'e.g. welcome',
			validation: [
				{
					type: 'regex',
					properties: {
						regex: PROMPT_NAME_PATTERN.source,
						errorMessage: 'A prompt name has English letters, digits, - and _ only',
					},
				},
			],
		},
	],
};

export function readPromptName(this: IExecuteFunctions, checks: InputChecks): string {
	const name = checks.required(
		'Voice Prompt',
		locatorValue.call(this, 'promptName', checks.itemIndex),
	);
	return checks.pattern(
		'Voice Prompt',
		name,
		PROMPT_NAME_PATTERN,
		'may contain English letters, digits, - and _ only (as listed by Get Many)',
	);
}
