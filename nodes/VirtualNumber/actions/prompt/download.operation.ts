import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { VIRTUALNUM_LABEL } from '../../../shared/transport/virtualnumApi';
import {
	downloadFailure,
	promptFileOf,
	virtualnumDownload,
} from '../../../shared/transport/virtualnumDownload';
import { VN_LIMITS } from '../../../shared/limits';
import { outputBinaryField } from '../fields';
import { promptRLC, readPromptName } from './fields';

const properties: INodeProperties[] = [promptRLC, outputBinaryField];

export const option: OperationOption = {
	name: 'Download',
	description: 'Download a prompt as a binary file (download_prompt)',
	action: 'Download a voice prompt',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['prompt'], operation: ['download'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const promptName = readPromptName.call(this, checks);
	const property = checks.required(
		'Put Output File in Field',
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
	);
	const download = await virtualnumDownload.call(this, {
		service: 'download_prompt',
		params: { prompt_name: promptName },
		itemIndex,
		timeoutMs: VN_LIMITS.requestRunTimeMs,
		statusAppended: true,
	});
	const context = {
		node: this.getNode(),
		serviceLabel: VIRTUALNUM_LABEL,
		operation: 'download_prompt',
		itemIndex,
	};
	let bytes: Buffer;
	try {
		// n8n's own reader; the download stream stops it at the size limit.
		bytes = await this.helpers.binaryToBuffer(download.data as Buffer);
	} catch (error) {
		throw download.failure() ?? downloadFailure(context, error as Error);
	}
	const { file, strippedBytes } = promptFileOf(bytes, context);
	const { mimeType, extension } = download.audio;
	const fileName = download.fileName ?? `${promptName}.${extension}`;
	const binary = await this.helpers.prepareBinaryData(file, fileName, mimeType);
	return [
		{
			json: {
				prompt_name: promptName,
				file_name: binary.fileName ?? fileName,
				mime_type: mimeType,
				size: file.length,
				...(strippedBytes > 0 ? { removed_status_bytes: strippedBytes } : {}),
			},
			binary: { [property]: binary },
		},
	];
};
