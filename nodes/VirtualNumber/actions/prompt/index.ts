import type { INodeProperties } from 'n8n-workflow';

import * as deletePrompt from './delete.operation';
import * as download from './download.operation';
import * as getAll from './getAll.operation';
import * as record from './record.operation';
import * as upload from './upload.operation';

export { deletePrompt as delete, download, getAll, record, upload };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['prompt'] } },
		options: [
			{
				name: 'Delete',
				value: 'delete',
				description:
					'Delete a prompt; calls through an active IVR that uses it will fail (delete_prompt)',
				action: 'Delete a voice prompt',
			},
			{
				name: 'Download',
				value: 'download',
				description: 'Download a prompt as a binary file (download_prompt)',
				action: 'Download a voice prompt',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get the prompts of the account (get_prompts_list)',
				action: 'Get many voice prompts',
			},
			{
				name: 'Record by Phone',
				value: 'record',
				description: 'Call a phone to record a new prompt (recording_studio)',
				action: 'Record a voice prompt by phone',
			},
			{
				name: 'Upload',
				value: 'upload',
				description: 'Upload an audio file from a binary field as a new prompt (upload_prompt)',
				action: 'Upload a voice prompt',
			},
		],
		default: 'getAll',
	},
	...deletePrompt.description,
	...download.description,
	...getAll.description,
	...record.description,
	...upload.description,
];
