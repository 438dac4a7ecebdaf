import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks, LIMITS, PROMPT_MIME_TYPES } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumBufferedDownload } from '../../../shared/transport/virtualnumApi';
import { promptLocator, readPromptName } from './fields';

const show = { resource: ['prompt'], operation: ['download'] };

export const description: INodeProperties[] = [
	promptLocator(show),
	{
		displayName: 'Put Output File in Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the output binary field to put the file in',
		displayOptions: { show },
	},
];

/** Audio types recognised by their first bytes, for answers without a useful Content-Type. */
function sniffAudio(data: Buffer): { mimeType: string; extension: string } | undefined {
	const head = data.subarray(0, 12).toString('latin1');
	if (head.startsWith('RIFF') && head.slice(8, 12) === 'WAVE') return { mimeType: 'audio/wav', extension: 'wav' };
	if (head.startsWith('ID3') || (data[0] === 0xff && (data[1] & 0xe0) === 0xe0 && (data[1] & 0x06) !== 0)) {
		return { mimeType: 'audio/mpeg', extension: 'mp3' };
	}
	if (head.startsWith('OggS')) return { mimeType: 'audio/ogg', extension: 'ogg' };
	if (head.startsWith('fLaC')) return { mimeType: 'audio/flac', extension: 'flac' };
	if (head.startsWith('#!AMR')) return { mimeType: 'audio/amr', extension: 'amr' };
	if (head.slice(4, 8) === 'ftyp') return { mimeType: 'audio/mp4', extension: 'm4a' };
	if (data[0] === 0xff && (data[1] & 0xf6) === 0xf0) return { mimeType: 'audio/aac', extension: 'aac' };
	return undefined;
}

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const promptName = readPromptName.call(this, check);
	const property = check.required('Put Output File in Field', this.getNodeParameter('binaryPropertyName', itemIndex, 'data'));
	const file = await virtualnumBufferedDownload.call(this, {
		service: 'download_prompt',
		params: { prompt_name: promptName },
		itemIndex,
		timeoutMs: LIMITS.longRequestMs,
	});
	const sniffed = sniffAudio(file.data);
	const mimeType = (file.contentType?.split(';')[0].trim() || sniffed?.mimeType) ?? 'application/octet-stream';
	const extension = PROMPT_MIME_TYPES[mimeType.toLowerCase()] ?? sniffed?.extension ?? 'bin';
	const fileName = file.fileName ?? `${promptName}.${extension}`;
	const binary = await this.helpers.prepareBinaryData(file.data, fileName, mimeType);
	return [
		{
			json: {
				prompt_name: promptName,
				file_name: binary.fileName ?? fileName,
				mime_type: mimeType,
				size: file.data.length,
				...(file.strippedBytes > 0 ? { removed_status_bytes: file.strippedBytes } : {}),
			},
			binary: { [property]: binary },
		},
	];
};
