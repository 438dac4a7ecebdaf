/**
 * Transport of the virtual number service, uploads (upload_prompt): `service` and `format` in the
 * URL, the fields and the file as multipart/form-data. Hand-written because the package may add no
 * runtime dependency (no `form-data`), and n8n-workflow offers no multipart builder.
 */
import {
	cleanParams,
	virtualnumRequest,
	type VirtualnumAnswer,
	type VirtualnumRequest,
} from './virtualnumApi';
import type { RequestContext } from './http';

/** One file part of a multipart/form-data request. */
interface MultipartFile {
	field: string;
	fileName: string;
	contentType: string;
	data: Buffer;
}

/**
 * A multipart/form-data body built by hand as one Buffer: the package may add no runtime
 * dependency (no `form-data`), and a Buffer body goes through n8n's request helper byte for byte.
 */
function buildMultipartBody(
	fields: Record<string, string>,
	files: MultipartFile[],
): { body: Buffer; contentType: string } {
	let boundary = '';
	// The boundary must not occur in any part; a random one almost never does, but it is checked.
	do {
		boundary = `----n8nVirtualnum${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`;
	} while (
		files.some((file) => file.data.includes(boundary)) ||
		Object.values(fields).some((v) => v.includes(boundary))
	);
	const quote = (text: string) => text.replace(/[\r\n]+/g, ' ').replace(/"/g, '%22');
	const parts: Buffer[] = [];
	for (const [name, value] of Object.entries(fields)) {
		parts.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`,
				'utf8',
			),
		);
	}
	for (const file of files) {
		parts.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${quote(file.field)}"; ` +
					`filename="${quote(file.fileName)}"\r\n` +
					`Content-Type: ${file.contentType || 'application/octet-stream'}\r\n\r\n`,
				'utf8',
			),
			file.data,
			Buffer.from('\r\n', 'utf8'),
		);
	}
	parts.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
	return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** An operation that takes files (upload_prompt): `service` and `format` in the URL, the rest as multipart fields. */
export async function virtualnumUpload(
	this: RequestContext,
	request: VirtualnumRequest & { files: MultipartFile[] },
): Promise<VirtualnumAnswer> {
	const { body, contentType } = buildMultipartBody(cleanParams(request.params), request.files);
	return await virtualnumRequest.call(this, {
		...request,
		params: {},
		method: 'POST',
		requestOptions: { ...request.requestOptions, body, headers: { 'Content-Type': contentType } },
	});
}
