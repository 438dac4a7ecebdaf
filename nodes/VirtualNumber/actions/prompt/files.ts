/**
 * The spec's rules of voice prompt names and files (upload_prompt rules 1 and 4; the valid
 * characters of prompt_name for download and delete), used before anything is sent.
 */
import { LIMITS } from '../../../shared/checks';

/** Characters a prompt_name may contain for download and delete. */
export const PROMPT_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** The name the service will store for an uploaded prompt (rule 1). */
export function promptNameFromFileName(fileName: string): string {
	const base = fileName.split('/').pop() ?? fileName;
	return (
		base
			.split('.')[0]
			.toLowerCase()
			// The spec only says "normalized"; spaces becoming "_" keeps word breaks (the sandbox does the same).
			.replace(/\s+/g, '_')
			.replace(/[^a-z0-9_-]/g, '')
	);
}

/** MIME types of the supported prompt formats (LIMITS.promptFile.extensions), for files named without an extension. */
const PROMPT_MIME_TYPES: Record<string, (typeof LIMITS.promptFile.extensions)[number]> = {
	'audio/wav': 'wav',
	'audio/x-wav': 'wav',
	'audio/wave': 'wav',
	'audio/vnd.wave': 'wav',
	'audio/mpeg': 'mp3',
	'audio/mp3': 'mp3',
	'audio/aac': 'aac',
	'audio/x-aac': 'aac',
	'audio/flac': 'flac',
	'audio/x-flac': 'flac',
	'audio/ogg': 'ogg',
	'audio/mp4': 'm4a',
	'audio/x-m4a': 'm4a',
	'audio/amr': 'amr',
	'audio/opus': 'opus',
};

/**
 * The supported prompt format of a file (rule 4): by the extension of its name, or by its MIME
 * type when the name has none. Undefined when it is not a supported one.
 */
export function promptFileType(fileName: string, mimeType?: string): string | undefined {
	const base = fileName.split('/').pop() ?? fileName;
	const dot = base.lastIndexOf('.');
	const supported = LIMITS.promptFile.extensions as readonly string[];
	if (dot > 0) {
		const extension = base.slice(dot + 1).toLowerCase();
		return supported.includes(extension) ? extension : undefined;
	}
	return PROMPT_MIME_TYPES[(mimeType ?? '').split(';')[0].trim().toLowerCase()];
}
