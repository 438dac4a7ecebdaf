/**
 * Secrets never shown: every URL the trigger prints, in an error or a log line, has every
 * secret masked — its own, another workflow's (a number may carry another trigger's URL), a CRM's.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

export const MASK = '********';

/**
 * Query parameters whose values are secrets, in any URL: this trigger's `secret`, another
 * workflow's, a CRM's `token`, `api_key`, `signature`… Matched as typed, URL-encoded once (a URL
 * inside `vnt_prev`) or twice, up to the next parameter.
 */
const SECRET_VALUE =
	/(\b[\w.-]*(?:secret|token|key|passw(?:or)?d|pwd|signature|sig|auth\w*|hash|hmac|credential)[\w.-]*(?:=|%3D|%253D))((?:(?!%26|%2526)[^&\s"'<>,;\\])+)/gi;
/** A password in a URL's user information (`https://user:password@host`). */
const URL_PASSWORD = /(\bhttps?:\/\/[^\s/:@"'<>]*:)[^\s/@"'<>]+@/gi;

/**
 * Text with every secret masked: every secret-like parameter of every URL it holds (whosever
 * URL it is), passwords in URLs, and the given secrets in any form (as typed, URL-encoded,
 * JSON-escaped).
 */
export function maskSecrets(text: string, secrets: string[] = []): string {
	let masked = text.replace(URL_PASSWORD, `$1${MASK}@`).replace(SECRET_VALUE, `$1${MASK}`);
	for (const secret of secrets) {
		if (secret === '') continue;
		const forms = new Set([
			secret,
			encodeURIComponent(secret),
			encodeURIComponent(encodeURIComponent(secret)),
			JSON.stringify(secret).slice(1, -1),
		]);
		for (const form of forms) masked = masked.split(form).join(MASK);
	}
	return masked;
}

/** The trigger's own secret, or '' (the parameter may be unreadable in a broken workflow). */
export function ownSecret(this: IHookFunctions): string {
	try {
		return String(((this.getNodeParameter('options', {}) ?? {}) as IDataObject).secret ?? '');
	} catch {
		return '';
	}
}

/** The error with every secret masked wherever n8n shows or stores it (message, description, data). */
export function maskError(error: unknown, secrets: string[]): unknown {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	const mask = (value: string) => maskSecrets(value, secrets);
	error.message = mask(error.message);
	if (error.description) error.description = mask(error.description);
	const scrub = <T>(value: T): T =>
		value === undefined ? value : (JSON.parse(mask(JSON.stringify(value))) as T);
	if (error.context.data !== undefined) error.context.data = scrub(error.context.data);
	const withCause = error as { cause?: unknown; messages?: string[] };
	if (withCause.cause !== undefined && !(withCause.cause instanceof Error))
		withCause.cause = scrub(withCause.cause);
	if (Array.isArray(withCause.messages))
		withCause.messages = withCause.messages.map((message) => mask(String(message)));
	return error;
}

/** Writes a log line with every secret masked. */
export function logMasked(
	context: IHookFunctions,
	level: 'info' | 'warn' | 'error',
	message: string,
): void {
	context.logger[level](
		`Virtual Number Trigger: ${maskSecrets(message, [ownSecret.call(context)])}`,
	);
}
