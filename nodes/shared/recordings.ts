/**
 * A downloaded recording as n8n binary data, for Download Recording and the Call Record Trigger's
 * Include → Recording. The answer goes to n8n's binary helpers as it arrives: in filesystem or S3
 * binary mode the recording is written through, never held in memory.
 */
import type { IBinaryData, IExecuteFunctions, INodeProperties, IPollFunctions } from 'n8n-workflow';

import { VIRTUALNUM_LABEL } from './transport/virtualnumApi';
import { downloadFailure, type virtualnumDownload } from './transport/virtualnumDownload';

/** The format get_record_by_call_uuid serves (`type`): the field of each node that chooses one. */
export const recordingFormatField: INodeProperties = {
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
};

type Download = Awaited<ReturnType<typeof virtualnumDownload>>;

interface Recording {
	binary: IBinaryData;
	/** The extension the bytes show (wav or mp3), whatever was asked for. */
	format: string;
	fileName: string;
	mimeType: string;
}

/** The file as binary data, named `fileName` or `<call ID>.<the bytes' extension>`. */
export async function recordingBinary(
	this: IExecuteFunctions | IPollFunctions,
	file: Download,
	callId: string,
	options: { fileName?: string; itemIndex?: number } = {},
): Promise<Recording> {
	// The bytes decide the extension and MIME type; the request only says what was asked for.
	const { extension: format, mimeType } = file.audio;
	const fileName = options.fileName || `${callId}.${format}`;
	try {
		// (`data` is a Buffer or the answer's Readable; typed without importing node:stream.)
		const binary = await this.helpers.prepareBinaryData(file.data as Buffer, fileName, mimeType);
		return { binary, format, fileName, mimeType };
	} catch (error) {
		throw (
			file.failure() ??
			downloadFailure(
				{
					node: this.getNode(),
					serviceLabel: VIRTUALNUM_LABEL,
					operation: 'get_record_by_call_uuid',
					itemIndex: options.itemIndex,
				},
				error as Error,
			)
		);
	}
}
