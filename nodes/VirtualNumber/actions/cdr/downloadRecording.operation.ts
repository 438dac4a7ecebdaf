import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import {
	VIRTUALNUM_LABEL,
	downloadFailure,
	virtualnumStreamDownload,
} from '../../../shared/transport/virtualnumApi';
import { callUuidField, timeoutMs, timeoutOption } from './common';

const AUDIO = {
	wav: { mimeType: 'audio/wav' },
	mp3: { mimeType: 'audio/mpeg' },
} as const;
type AudioFormat = keyof typeof AUDIO;

const properties: INodeProperties[] = [
	callUuidField,
	{
		displayName: 'File Format',
		name: 'fileFormat',
		type: 'options',
		options: [
			{ name: 'MP3', value: 'mp3', description: 'Smaller; converted by the service on the fly' },
			{ name: 'WAV', value: 'wav', description: 'The original recording (the default of the service)' },
		],
		default: 'wav',
	},
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
	},
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
				description: 'Name of the output file. Default: the call ID with the extension of the format.',
			},
			timeoutOption,
		],
	},
];

export const description = updateDisplayOptions({ show: { resource: ['cdr'], operation: ['downloadRecording'] } }, properties);

/** The format the bytes really are (WAV: "RIFF....WAVE"; MP3: an ID3 tag or an MPEG frame sync). */
export function detectAudioFormat(head: Buffer): AudioFormat | undefined {
	if (head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WAVE') return 'wav';
	if (head.length >= 3 && head.toString('latin1', 0, 3) === 'ID3') return 'mp3';
	if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0) return 'mp3';
	return undefined;
}

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const callUuid = checks.required('Call ID', this.getNodeParameter('callUuid', itemIndex, ''));
	const requested = checks.oneOf('File Format', String(this.getNodeParameter('fileFormat', itemIndex, 'wav')), ['wav', 'mp3'] as const);
	const binaryPropertyName = checks.required('Put Output File in Field', this.getNodeParameter('binaryPropertyName', itemIndex, 'data'));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const timeout = timeoutMs(options, checks);

	const file = await virtualnumStreamDownload.call(this, {
		service: 'get_record_by_call_uuid',
		params: { call_uuid: callUuid, type: requested },
		itemIndex,
		timeoutMs: timeout,
	});
	// The bytes decide the extension and MIME type; the request only says what was asked for.
	const format = detectAudioFormat(file.head) ?? requested;
	const fileName = String(options.fileName ?? '').trim() || `${callUuid}.${format}`;
	let binary: IBinaryData;
	try {
		// The response stream goes to n8n's binary helpers as it arrives: in filesystem or S3
		// binary mode the recording is written through, never held in memory.
		binary = await this.helpers.prepareBinaryData(file.data as Buffer, fileName, AUDIO[format].mimeType);
	} catch (error) {
		throw downloadFailure(
			{ node: this.getNode(), serviceLabel: VIRTUALNUM_LABEL, operation: 'get_record_by_call_uuid', itemIndex },
			file.streamError() ?? (error as Error),
		);
	}
	return [
		{
			json: { call_uuid: callUuid, format, file_name: fileName, mime_type: AUDIO[format].mimeType },
			binary: { [binaryPropertyName]: binary },
		},
	];
};
