/**
 * Secrets never shown: the one masker of every text the package shows or stores that may hold a
 * secret (a service's answer echoing the access token, a URL with `secret=`, an error quoting
 * either). Linear in the text's length whatever it holds: the service's text is untrusted, and a
 * backtracking pattern over a long answer would block n8n's event loop for every workflow.
 */
const MASK = '********';

/** Query parameter names whose values are secrets, in any URL (`secret`, `token`, `api_key`, …). */
const SECRET_NAME = /secret|token|key|passw(?:or)?d|pwd|signature|sig|auth|hash|hmac|credential/i;
/** How far back from a `=` a parameter name is read: longer names are not parameter names. */
const MAX_NAME = 64;
/**
 * What ends a parameter's value, by how deep the `=` was encoded: the next parameter of the same
 * URL (`&`; `%26` inside a URL encoded once; `%2526` inside one encoded twice) or text around it.
 * A `%26` after a typed `=` is an `&` of the value itself (a Secret such as `abc&Tail`, sent as
 * `secret=abc%26Tail`): it is masked with the value, never left showing the value's tail.
 */
const VALUE_END = [/[&\s"'<>,;\\]/g, /[&\s"'<>,;\\]|%26/g, /[&\s"'<>,;\\]|%26|%2526/g];
const NAME_CHAR = /[\w.-]/;

/** The length of the `=` at `at` (typed, or URL-encoded once or twice), or 0. */
function assignmentAt(text: string, at: number): number {
	const char = text.charCodeAt(at);
	if (char === 61) return 1; // =
	if (char !== 37) return 0; // %
	const next = text.slice(at + 1, at + 5).toUpperCase();
	return next.startsWith('3D') ? 3 : next === '253D' ? 5 : 0;
}

/** Masks the value of every secret-like `name=value` (typed, or URL-encoded once or twice), in one pass. */
function maskParameters(text: string): string {
	const parts: string[] = [];
	let copied = 0;
	for (let at = 0; at < text.length; at++) {
		const length = assignmentAt(text, at);
		if (length === 0 || at === 0 || !NAME_CHAR.test(text[at - 1])) continue;
		let start = at - 1;
		while (start > 0 && at - start < MAX_NAME && NAME_CHAR.test(text[start - 1])) start--;
		if (!SECRET_NAME.test(text.slice(start, at))) continue;
		const valueStart = at + length;
		const valueEnd = VALUE_END[length === 1 ? 0 : length === 3 ? 1 : 2];
		valueEnd.lastIndex = valueStart;
		const end = valueEnd.exec(text)?.index ?? text.length;
		if (end === valueStart) continue;
		parts.push(text.slice(copied, valueStart), MASK);
		copied = end;
		at = end - 1;
	}
	if (copied === 0) return text;
	parts.push(text.slice(copied));
	return parts.join('');
}

/** Masks the password of `https://user:password@host`. */
function maskUrlPasswords(text: string): string {
	return text.replace(/(\bhttps?:\/\/[^\s/:@"'<>]{0,256}:)[^\s/@"'<>]{1,1024}@/gi, `$1${MASK}@`);
}

/** The forms a secret takes in text: as typed, URL-encoded (once, twice, as a form), JSON-escaped. */
function formsOf(secret: string): string[] {
	const encoded = encodeURIComponent(secret);
	return [
		...new Set([
			secret,
			encoded,
			encodeURIComponent(encoded),
			encoded.replace(/%20/g, '+'),
			JSON.stringify(secret).slice(1, -1),
		]),
	]
		.filter((form) => form !== '')
		.sort((a, b) => b.length - a.length);
}

/** Text with the given secrets masked in every form (longest form first, so a secret is masked whole). */
export function maskKnown(text: string, secrets: Array<string | undefined>): string {
	let masked = text;
	for (const secret of secrets) {
		if (!secret || secret.trim() === '') continue;
		for (const form of formsOf(secret.trim())) masked = masked.split(form).join(MASK);
	}
	return masked;
}

/**
 * The token of a Virtual Number Trigger's SMS URL (`…/webhook/<webhookId>/sms/<32 hex>`, the
 * secret of URLs pasted by hand: shared/triggerUrl.ts), in any URL it appears in.
 */
const SMS_URL_TOKEN = /(\/[0-9a-f-]{36}\/sms\/)[0-9a-f]{32}\b/gi;

function maskSmsTokens(text: string): string {
	return text.includes('/sms/') ? text.replace(SMS_URL_TOKEN, `$1${MASK}`) : text;
}

/**
 * Text with every secret masked: the given secrets in any form, every secret-like parameter of
 * every URL it holds (whosever URL it is), the token of a trigger's SMS URL, passwords in URLs.
 */
export function maskSecrets(text: string, secrets: Array<string | undefined> = []): string {
	return maskUrlPasswords(maskSmsTokens(maskParameters(maskKnown(text, secrets))));
}

/** Whether a text holds a masked secret: a value this package showed, given back to it. */
export function holdsMask(text: string): boolean {
	return text.includes(MASK);
}

/**
 * Whether `shown` is `original` as this package shows it (`maskSecrets`), given back unchanged:
 * the field was copied from an output, and what it stands for is `original`, not the masked text.
 */
export function isMaskedCopyOf(shown: string, original: string): boolean {
	return shown !== original && holdsMask(shown) && maskSecrets(original) === shown;
}

/** A JSON-able value with every string in it masked (keys included). */
function maskValue<T>(value: T, secrets: Array<string | undefined>): T {
	if (value === undefined || value === null) return value;
	return JSON.parse(maskSecrets(JSON.stringify(value), secrets)) as T;
}

/**
 * Credential values shorter than this are not masked in the service's text: no service issues such
 * tokens, and masking every "a" of an answer would garble it (and its status) for nothing.
 */
const MIN_TOKEN_LENGTH = 6;

/** The tokens of a credential (every field whose name says token, key, secret or password). */
export function credentialSecrets(credentials: Record<string, unknown> | undefined): string[] {
	return Object.entries(credentials ?? {})
		.filter(([name, value]) => typeof value === 'string' && SECRET_NAME.test(name))
		.map(([, value]) => String(value).trim())
		.filter((value) => value.length >= MIN_TOKEN_LENGTH);
}

/** The error (n8n's, or any with message/description/context) with every secret masked where n8n shows it. */
export function maskError<T>(error: T, secrets: Array<string | undefined>): T {
	const target = error as {
		message?: unknown;
		description?: unknown;
		context?: { data?: unknown };
		cause?: unknown;
		messages?: unknown;
	} | null;
	if (!target || typeof target !== 'object') return error;
	const mask = (text: string) => maskSecrets(text, secrets);
	if (typeof target.message === 'string') target.message = mask(target.message);
	if (typeof target.description === 'string') target.description = mask(target.description);
	if (target.context?.data !== undefined)
		target.context.data = maskValue(target.context.data, secrets);
	if (target.cause !== undefined && !(target.cause instanceof Error))
		target.cause = maskValue(target.cause, secrets);
	if (Array.isArray(target.messages))
		target.messages = target.messages.map((message) => mask(String(message)));
	return error;
}
