import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { sendWrite, writeOutput } from '../../helpers/utils';
import { promptRLC, readPromptName } from './fields';

const properties: INodeProperties[] = [
	{
		displayName:
			'Deleting a prompt that an active IVR uses makes the calls through that ' +
			'IVR fail. Check the IVR designs and the greetings of your numbers first.',
		name: 'deleteNotice',
		type: 'notice',
		default: '',
	},
	promptRLC,
];

export const option: OperationOption = {
	name: 'Delete',
	description:
		'Delete a prompt; calls through an active IVR that uses it will fail (delete_prompt)',
	action: 'Delete a voice prompt',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['prompt'], operation: ['delete'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const promptName = readPromptName.call(this, checks);
	const answer = await sendWrite.call(
		this,
		'delete_prompt',
		{ prompt_name: promptName },
		itemIndex,
	);
	return this.helpers.returnJsonArray({
		...writeOutput(answer, { prompt_name: promptName }),
		deleted: true,
	});
};
