import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { writeOutput } from '../user/fields';
import { promptLocator, readPromptName } from './fields';

const show = { resource: ['prompt'], operation: ['delete'] };

export const description: INodeProperties[] = [
	{
		displayName:
			'Deleting a prompt that an active IVR uses makes the calls through that IVR fail. Check the IVR designs and the greetings of your numbers first.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
		displayOptions: { show },
	},
	promptLocator(show),
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const promptName = readPromptName.call(this, check);
	const answer = await virtualnumRequest.call(this, {
		service: 'delete_prompt',
		params: { prompt_name: promptName },
		method: 'POST',
		itemIndex,
		sideEffect: true,
	});
	return this.helpers.returnJsonArray({ ...writeOutput(answer, { prompt_name: promptName }), deleted: true });
};
