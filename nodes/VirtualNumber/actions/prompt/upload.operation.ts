import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks, LIMITS, MB, promptFileType, promptNameFromFileName } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumUpload } from '../../../shared/transport/virtualnumUpload';

const show = { resource: ['prompt'], operation: ['upload'] };
const FORMATS = LIMITS.promptFile.extensions.map((extension) => extension.toUpperCase()).join(', ');

export const description: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		hint: 'The name of the input binary field containing the file to upload',
		description: `An audio file of at most ${LIMITS.promptFile.maxBytes / MB} MB: ${FORMATS}`,
		displayOptions: { show },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: { show },
		options: [
			{
				displayName: 'Prompt Name',
				name: 'promptName',
				type: 'string',
				default: '',
				placeholder: 'e.g. welcome',
				description:
					"The name to store the prompt under. The service takes the name from the uploaded file's name (the part before the first dot, lower-cased, letters, digits, - and _ only), so the file is sent as &lt;Prompt Name&gt;.&lt;extension&gt;. Empty: the input file's own name.",
			},
			{
				displayName: 'Name to Check',
				name: 'fileName',
				type: 'string',
				default: '',
				description:
					'Sent as file_name: the service refuses the upload when a prompt with this name exists. It does not set the stored name.',
			},
		],
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const property = check.required('Input Binary Field', this.getNodeParameter('binaryPropertyName', itemIndex, 'data'));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const binary = this.helpers.assertBinaryData(itemIndex, property);
	const original = String(binary.fileName ?? '').trim();
	const type = promptFileType(original, binary.mimeType);
	if (!type) {
		check.fail(
			'Input Binary Field',
			`the file must be one of the supported audio formats (${FORMATS}), recognised by its extension or MIME type`,
			`${original || 'a file without a name'} (${binary.mimeType || 'no MIME type'})`,
		);
	}
	const chosen = String(options.promptName ?? '').trim();
	const fileName = chosen ? `${chosen}.${type}` : original || `.${type}`;
	const promptName = promptNameFromFileName(fileName);
	if (promptName === '') {
		check.fail(
			chosen ? 'Prompt Name' : 'Input Binary Field',
			'gives an empty prompt name: the stored name is the part of the file name before the first dot, with English letters, digits, - and _ only. Set the Prompt Name option',
			chosen || original || '(no file name)',
		);
	}
	const checkName = String(options.fileName ?? '').trim();
	const max = LIMITS.promptFile.maxBytes;
	const tooBig = (bytes: number) =>
		check.fail('Input Binary Field', `the file must be at most ${max / MB} MB (${max} bytes)`, `${bytes} bytes`);
	// Known sizes are checked before the file is read; the bytes themselves after.
	if (typeof binary.bytes === 'number' && binary.bytes > max) tooBig(binary.bytes);
	const data = await this.helpers.getBinaryDataBuffer(itemIndex, property);
	if (data.length > max) tooBig(data.length);
	if (data.length === 0) check.fail('Input Binary Field', 'the file is empty');
	const mimeType = binary.mimeType || 'application/octet-stream';
	const answer = await virtualnumUpload.call(this, {
		service: 'upload_prompt',
		params: { file_name: checkName },
		files: [{ field: 'prompt_file', fileName, contentType: mimeType, data }],
		itemIndex,
		sideEffect: true,
		timeoutMs: LIMITS.longRequestMs,
	});
	const stored = String(answer.status.prompt_name ?? (answer.result as IDataObject | undefined)?.prompt_name ?? '').trim();
	return this.helpers.returnJsonArray({
		success: true,
		prompt_name: stored || promptName,
		file_name: fileName,
		mime_type: mimeType,
		size: data.length,
		description: answer.status.description,
	});
};
