import type { IBinaryData, IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks, LIMITS, MB } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumUpload } from '../../../shared/transport/virtualnumUpload';
import { STATUS_DESCRIPTION } from '../../helpers/utils';
import { VN_LIMITS } from '../../../shared/limits';
import { promptFileType, promptNameFromFileName } from './files';

const FORMATS = LIMITS.promptFile.extensions.map((extension) => extension.toUpperCase()).join(', ');

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field containing the file to upload',
		description: `An audio file of at most ${LIMITS.promptFile.maxBytes / MB} MB: ${FORMATS}`,
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Prompt Name',
				name: 'promptName',
				type: 'string',
				default: '',
				placeholder: 'e.g. welcome',
				description:
					'The name to store the prompt under. The service takes the name from the ' +
					"uploaded file's name (the part before the first dot, lower-cased, letters, " +
					'digits, - and _ only), so the file is sent as &lt;Prompt Name&gt;.&lt;extension&gt;. ' +
					"Empty: the input file's own name.",
			},
			{
				displayName: 'Name to Check',
				name: 'fileName',
				type: 'string',
				default: '',
				description:
					'Sent as file_name: the service refuses the upload when a prompt with this ' +
					'name exists. It does not set the stored name.',
			},
		],
	},
];

export const option: OperationOption = {
	name: 'Upload',
	description: 'Upload an audio file from a binary field as a new prompt (upload_prompt)',
	action: 'Upload a voice prompt',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['prompt'], operation: ['upload'] } },
	properties,
);

/** The name the file is sent under, and the prompt name the service will store it as. */
function namesOf(
	checks: InputChecks,
	binary: IBinaryData,
	chosen: string,
): { fileName: string; promptName: string } {
	const original = String(binary.fileName ?? '').trim();
	const type = promptFileType(original, binary.mimeType);
	if (!type) {
		checks.fail(
			'Input Binary Field',
			`the file must be one of the supported audio formats (${FORMATS}), recognised by its extension or MIME type`,
			`${original || 'a file without a name'} (${binary.mimeType || 'no MIME type'})`,
		);
	}
	const fileName = chosen ? `${chosen}.${type}` : original || `.${type}`;
	const promptName = promptNameFromFileName(fileName);
	if (promptName === '') {
		checks.fail(
			chosen ? 'Prompt Name' : 'Input Binary Field',
			'gives an empty prompt name: the stored name is the part of the file name ' +
				'before the first dot, with English letters, digits, - and _ only. Set ' +
				'the Prompt Name option',
			chosen || original || '(no file name)',
		);
	}
	return { fileName, promptName };
}

/** The file's bytes: sizes known from the binary's metadata are checked before the file is read, the bytes after. */
async function fileBytes(
	this: IExecuteFunctions,
	checks: InputChecks,
	binary: IBinaryData,
	property: string,
): Promise<Buffer> {
	const max = LIMITS.promptFile.maxBytes;
	const tooBig = (bytes: number) =>
		checks.fail(
			'Input Binary Field',
			`the file must be at most ${max / MB} MB (${max} bytes)`,
			`${bytes} bytes`,
		);
	if (typeof binary.bytes === 'number' && binary.bytes > max) tooBig(binary.bytes);
	const data = await this.helpers.getBinaryDataBuffer(checks.itemIndex, property);
	if (data.length > max) tooBig(data.length);
	if (data.length === 0) checks.fail('Input Binary Field', 'the file is empty');
	return data;
}

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const property = checks.required(
		'Input Binary Field',
		this.getNodeParameter('binaryPropertyName', itemIndex, 'data'),
	);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const binary = this.helpers.assertBinaryData(itemIndex, property);
	const { fileName, promptName } = namesOf(checks, binary, String(options.promptName ?? '').trim());
	const data = await fileBytes.call(this, checks, binary, property);
	const mimeType = binary.mimeType || 'application/octet-stream';
	const answer = await virtualnumUpload.call(this, {
		service: 'upload_prompt',
		params: { file_name: String(options.fileName ?? '').trim() },
		files: [{ field: 'prompt_file', fileName, contentType: mimeType, data }],
		itemIndex,
		sideEffect: true,
		timeoutMs: VN_LIMITS.requestRunTimeMs,
	});
	const stored = String(
		answer.status.prompt_name ?? (answer.result as IDataObject | undefined)?.prompt_name ?? '',
	).trim();
	return this.helpers.returnJsonArray({
		success: true,
		prompt_name: stored || promptName,
		file_name: fileName,
		mime_type: mimeType,
		size: data.length,
		[STATUS_DESCRIPTION]: answer.status.description,
	});
};
