import type { INodeProperties } from 'n8n-workflow';

import * as createManual from './createManual.operation';
import * as downloadRecording from './downloadRecording.operation';
import * as getMetadata from './getMetadata.operation';
import * as getUniqueCallers from './getUniqueCallers.operation';
import * as query from './query.operation';

export { createManual, downloadRecording, getMetadata, getUniqueCallers, query };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['cdr'] } },
		options: [
			{
				name: 'Create Manual Record',
				value: 'createManual',
				description: 'Add a call record, e.g. from an external IVR or an import',
				action: 'Create a manual call record',
			},
			{
				name: 'Download Recording',
				value: 'downloadRecording',
				description: 'Download the recording of a call as a WAV or MP3 file',
				action: 'Download a call recording',
			},
			{
				name: 'Get Metadata',
				value: 'getMetadata',
				description: 'Get the marketing, advertising and transcription data of a call',
				action: 'Get call metadata',
			},
			{
				name: 'Get Unique Callers Report',
				value: 'getUniqueCallers',
				description: 'Answered calls of a period per unique caller, with the number of calls',
				action: 'Get the unique callers report',
			},
			{
				name: 'Query',
				value: 'query',
				description: 'Get call records, built from filters or with a read-only SQL statement',
				action: 'Query call records',
			},
		],
		default: 'query',
	},
	...createManual.description,
	...downloadRecording.description,
	...getMetadata.description,
	...getUniqueCallers.description,
	...query.description,
];
