import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { VIRTUALNUM_LABEL } from '../../../shared/transport/virtualnumApi';
import { downloadFailure } from '../../../shared/transport/virtualnumDownload';
import { callIdOutput, readCallId } from '../../helpers/utils';
import { callIdField, outputBinaryField } from '../fields';
import { timeoutMs, timeoutOption } from './fields';
import { downloadWhenRecorded, readRecordingWait, waitForRecordingOption } from './recordingWait';

const properties: INodeProperties[] = [
	callIdField,
	{
		displayName: 'File Format',
		name: 'fileFormat',
		type: 'options',
		options: [
			{ name: 'MP3', value: 'mp3', description: 'Smaller; converted by the service on the fly' },
			{
				name: 'WAV',
				value: 'wav',
				description: 'The original recording (the default of the service)',
			},
		],
		default: 'wav',
	},
	outputBinaryField,
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				placeholder: 'e.g. recording.wav',
				description:
					'Name of the output file. Default: the call ID with the extension of the format.',
			},
			timeoutOption,
			waitForRecordingOption,
		],
	},
];

export const option: OperationOption = {
	name: 'Download Recording',
	description: 'Download the recording of a call as a WAV or MP3 file',
	action: 'Download a call recording',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['cdr'], operation: ['downloadRecording'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const callId = readCallId.call(this, checks);
	const requested = checks.oneOf(
		'File Format',
		String(this.getNodeParameter('fileFormat', itemIndex, 'wav')),
		['wav', 'mp3'] as const,
	);
	const binaryPropertyName = checks.required(
		'Put Output File in Field',
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const timeout = timeoutMs(options, checks);

	const waitSec = readRecordingWait(checks, options.waitForRecordingSec);

	const file = await downloadWhenRecorded.call(
		this,
		{
			service: 'get_record_by_call_uuid',
			params: { call_uuid: callId, type: requested },
			itemIndex,
			timeoutMs: timeout,
		},
		waitSec,
	);
	// The bytes decide the extension and MIME type; the request only says what was asked for.
	const { extension: format, mimeType } = file.audio;
	const fileName = String(options.fileName ?? '').trim() || `${callId}.${format}`;
	let binary: IBinaryData;
	try {
		// The answer goes to n8n's binary helpers as it arrives: in filesystem or S3 binary mode the
		// recording is written through, never held in memory.
		// (`data` is a Buffer or the answer's Readable; typed without importing node:stream.)
		binary = await this.helpers.prepareBinaryData(file.data as Buffer, fileName, mimeType);
	} catch (error) {
		throw (
			file.failure() ??
			downloadFailure(
				{
					node: this.getNode(),
					serviceLabel: VIRTUALNUM_LABEL,
					operation: 'get_record_by_call_uuid',
					itemIndex,
				},
				error as Error,
			)
		);
	}
	return [
		{
			json: callIdOutput(callId, { format, file_name: fileName, mime_type: mimeType }),
			binary: { [binaryPropertyName]: binary },
		},
	];
};
