import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { ItemOperation, OperationOption } from '../../../shared/router';
import { callIdOutput } from '../../helpers/utils';
import { callIdField } from '../fields';
import { readCallMetadata, withTranscript } from './transcript';

const properties: INodeProperties[] = [
	{
		...callIdField,
		description:
			`${callIdField.description}. Returns the sections cdr, pixel_data, ads_data, ` +
			`ads_call_extension_data and speech_recognition, each when the service ` +
			`has such data; beside speech_recognition, its text as \`transcript\` (one line per ` +
			`turn, with speaker and times where the service gives them).`,
	},
];

export const option: OperationOption = {
	name: 'Get Metadata',
	description: 'Get the marketing, advertising and transcription data of a call',
	action: 'Get call metadata',
};

export const toolDescription =
	'Get the marketing, advertising and transcription data of one call, by its call ID (the callId of a ' +
	'call record, e.g. 1714557600.123). Free, changes nothing.';

export const description = updateDisplayOptions(
	{ show: { resource: ['cdr'], operation: ['getMetadata'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const { callId, metadata } = await readCallMetadata.call(this, itemIndex);
	return this.helpers.returnJsonArray(callIdOutput(callId, withTranscript(metadata)));
};
