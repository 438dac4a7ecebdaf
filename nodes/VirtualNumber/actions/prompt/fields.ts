/** The voice prompt locator (list from get_prompts_list, or a name) and its value. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { PROMPT_NAME_PATTERN, type InputChecks } from '../../../shared/checks';
import { type Show, locatorValue } from '../user/fields';

export function promptLocator(show: Show): INodeProperties {
	return {
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
							regex: '^[A-Za-z0-9_-]+$',
							errorMessage: 'A prompt name has English letters, digits, - and _ only',
						},
					},
				],
			},
		],
		displayOptions: { show },
	};
}

export function readPromptName(this: IExecuteFunctions, check: InputChecks): string {
	const name = check.required('Voice Prompt', locatorValue.call(this, 'promptName', check.itemIndex));
	return check.pattern(
		'Voice Prompt',
		name,
		PROMPT_NAME_PATTERN,
		'may contain English letters, digits, - and _ only (as listed by Get Many)',
	);
}
