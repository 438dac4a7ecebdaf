import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import type { ItemOperation, OperationOption } from '../../../shared/router';
import { callIdOutput } from '../../helpers/utils';
import { callIdField } from '../fields';
import { readCallMetadata, SPEECH_SECTION, transcriptText } from './transcript';

const properties: INodeProperties[] = [
	{
		...callIdField,
		description:
			`${callIdField.description}. The transcript comes from the speech_recognition section ` +
			`of the call's metadata, which the service has only when speech recognition is enabled ` +
			`for the account and the call was recorded.`,
	},
];

export const option: OperationOption = {
	name: 'Get Transcript',
	description: 'Get the transcript of a recorded call as plain text (speech recognition)',
	action: 'Get a call transcript',
};

export const toolDescription =
	'Get the transcript of one recorded call as plain text, by its call ID (the callId of a call record, ' +
	'e.g. 1714557600.123). Free, changes nothing. Fails when the call has no recording or transcript yet.';

export const description = updateDisplayOptions(
	{ show: { resource: ['cdr'], operation: ['getTranscript'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const { callId, metadata } = await readCallMetadata.call(this, itemIndex);
	const section = metadata[SPEECH_SECTION];
	const transcript = transcriptText(section);
	if (transcript === undefined) {
		throw new NodeOperationError(this.getNode(), `No transcript for call ${callId}`, {
			itemIndex,
			description:
				section === undefined
					? "The call's metadata has no speech_recognition section: speech recognition is not " +
						'enabled for this account (the provider enables it), or the call was not recorded. ' +
						'Call Record → Get Metadata shows what the service has for the call.'
					: 'The speech_recognition section has no text the node can read: see it with ' +
						'Call Record → Get Metadata.',
		});
	}
	const language = isText((section as IDataObject).language)
		? (section as IDataObject).language
		: undefined;
	return this.helpers.returnJsonArray(
		callIdOutput(callId, { transcript, ...(language !== undefined ? { language } : {}) }),
	);
};

function isText(value: unknown): value is string {
	return typeof value === 'string' && value.trim() !== '';
}
