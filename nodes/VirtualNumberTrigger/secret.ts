/**
 * The trigger's secret, in one place: the Secret option read (here alone), the secret generated when
 * none is set (made), put on the URLs the trigger registers and in the SMS URL's path (added),
 * checked against what a callback carries (compared), and masked in every error and log line the
 * trigger writes (masked).
 *
 * The URL a number calls is registered by the trigger itself, so the trigger can put a secret in
 * it that nobody typed: generated at the first activation and kept in the workflow's static data,
 * which every process reads from the database (a restart, queue mode's webhook processors, a second
 * main), so they all check the same value. It is kept, not rotated on each activation: a new value
 * would refuse the callbacks of calls already under way on the URLs the numbers carry. Node
 * version 1.1 does this; version 1 keeps what its saved workflows were built on (a request without
 * a secret passes when no Secret is set).
 *
 * URLs the user pastes by hand (the inbound-SMS URL set at the provider, Bulk SMS Send's Delivery
 * Report URL) can only carry a secret the editor can show (a notice cannot read the static data),
 * so the user's own Secret is theirs: version 1.1 asks for it when an SMS event is chosen.
 *
 * Numbers that carry a URL registered without a secret (before the static data holding the
 * generated one was saved; n8n 2.x does not activate webhook triggers again on restart) keep
 * reaching the workflow until its next activation: with no generated secret in the static data, a
 * callback without one is accepted, so no call is lost.
 */
import { createHash, randomBytes, timingSafeEqual } from 'crypto';
import type { IDataObject, IHookFunctions, INode, IWebhookFunctions, Logger } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../shared/checks';
import { maskError as maskSharedError, maskSecrets } from '../shared/masking';
import { DEFAULT_OPTION, SECRET_PARAM, registeredUrl, type UrlMode } from '../shared/triggerUrl';
import { smsDeliveryStatus } from './callback/events/smsDeliveryStatus';
import { smsReceived } from './callback/events/smsReceived';
import { isPlainObject } from './callback/request';
import type { TriggerSettings } from './types';

type TriggerContext = IHookFunctions | IWebhookFunctions;

// ---- The Secret option ----------------------------------------------------------------------

/** The Secret option, from the Options collection ('' when none is set). */
function secretOption(options: IDataObject): string {
	return String(options.secret ?? '');
}

/** The events whose URL the user pastes by hand (nothing registers it, so no generated secret can be on it). */
const PASTED_URL_EVENTS = [smsDeliveryStatus, smsReceived];

/**
 * The Secret the examples ship with: a placeholder to replace, known to anyone who read them, so
 * version 1.1 refuses it rather than let a published copy take forged SMS.
 */
const EXAMPLE_SECRET = 'change-me-to-a-long-random-secret';

function refuseSecret(node: INode, problem: string, fix: string): never {
	throw new NodeOperationError(node, `Secret: ${problem}`, { description: fix });
}

/**
 * The Secret the user set, and whether the trigger generates the secret of its URLs: version 1.1
 * with no Secret set. Version 1.1 refuses every callback without a secret, so its SMS events
 * (pasted URLs) need the Secret the user sets: the panel then shows their URL with its token
 * (SMS_PATH below). Reading fails, before any request, on the example's placeholder, and on SMS
 * events without a Secret.
 */
export function readSecret(
	node: INode,
	events: string[],
	options: IDataObject,
): { secret: string; generatesSecret: boolean } {
	const secret = secretOption(options);
	if (node.typeVersion < 1.1) return { secret, generatesSecret: false };
	if (secret.trim() === EXAMPLE_SECRET)
		refuseSecret(
			node,
			"the Secret is still the example's placeholder, which anyone who read the example knows",
			'Replace Options → Secret with a long random text of your own, then paste the URL the panel shows again.',
		);
	if (secret !== '') return { secret, generatesSecret: false };
	const pasted = PASTED_URL_EVENTS.filter(({ key }) => events.includes(key));
	if (pasted.length === 0) return { secret, generatesSecret: true };
	const names = pasted.map(({ option }) => option.name).join(' and ');
	refuseSecret(
		node,
		`${names} need${pasted.length === 1 ? 's' : ''} a Secret: their URL is pasted by hand, and a callback ` +
			'without a secret is refused',
		'Add Options → Secret (a long random text), then copy the Production URL the panel shows (it ends in ' +
			`/${SMS_PATH}/ and a token made from the Secret) to paste it.`,
	);
}

// ---- Made: the secret generated at activation -----------------------------------------------

/** Where the generated secret is kept in the trigger node's static data. */
const SECRET_KEY = 'callbackSecret';

function staticData(context: TriggerContext): IDataObject {
	return context.getWorkflowStaticData('node') as IDataObject;
}

/** The secret generated at an earlier activation, or undefined (never activated since this version). */
function generatedSecret(context: TriggerContext): string | undefined {
	const saved = staticData(context)[SECRET_KEY];
	return typeof saved === 'string' && saved !== '' ? saved : undefined;
}

/**
 * The secret on the URLs this trigger registers: the user's Secret, else (version 1.1) the one
 * generated at an earlier activation; undefined when none was generated yet.
 */
export function urlSecret(context: IHookFunctions, settings: TriggerSettings): string | undefined {
	return settings.generatesSecret ? generatedSecret(context) : settings.secret;
}

/** The secret an activation puts on the URLs: urlSecret's, generated now (24 random bytes, URL-safe) when none was. */
export function activationSecret(context: IHookFunctions, settings: TriggerSettings): string {
	const saved = urlSecret(context, settings);
	if (saved !== undefined) return saved;
	const secret = randomBytes(24).toString('base64url');
	staticData(context)[SECRET_KEY] = secret;
	return secret;
}

// ---- Added: on the URL the trigger registers, and in the SMS URL's path ---------------------

/** Why a callback URL cannot be registered on a number, or undefined when it can. */
function callbackUrlProblem(url: string): string | undefined {
	if (!/^https?:\/\/[^\s/]+/i.test(url)) return 'must be an http:// or https:// address';
	const max = LIMITS.callbackUrl.maxLength;
	if (url.length > max)
		return `is ${url.length} characters long; the service accepts at most ${max}`;
	return undefined;
}

/**
 * Checks the trigger's URL before any request: an http(s) address that, with the secret on it
 * (`?secret=`, the URL's format: nodes/shared/triggerUrl.ts) and the trigger's own parameters,
 * fits the service's limit on a callback URL.
 */
export function checkTriggerUrl(
	node: INode,
	webhookUrl: string,
	secret: string,
	mode: UrlMode,
): void {
	// The shortest URL the trigger registers: on a number that had no callback URL.
	const problem = callbackUrlProblem(
		registeredUrl(webhookUrl, secret, mode, { url: '', option: DEFAULT_OPTION }),
	);
	if (problem) {
		throw new NodeOperationError(
			node,
			`Callback URL: the trigger's URL${secret ? ' with the secret' : ''} ${problem}`,
			{
				description: secret
					? 'Use a shorter Secret, or set a shorter WEBHOOK_URL for n8n.'
					: "Set n8n's WEBHOOK_URL to the public https:// address the service can reach.",
			},
		);
	}
}

/**
 * URLs pasted by hand (the inbound-SMS URL set at the provider, Bulk SMS Send's Delivery Report
 * URL) carry their secret in the path, `…/webhook/<webhookId>/sms/<token>`, because n8n's editor
 * shows a webhook's URL from its path expression and nothing else: the panel then shows the exact
 * URL to paste. The token is the start of the Secret's SHA-256 (hex): a path-safe value whatever
 * the Secret holds, and the URL, which travels with every message to the SMS provider, does not
 * give away the Secret itself (which also opens the call callbacks' URL).
 */
const SMS_PATH = 'sms';
const SMS_TOKEN_LENGTH = 32;

function smsToken(secret: string): string {
	return createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, SMS_TOKEN_LENGTH);
}

/**
 * The SMS URL's path, `sms`, or `sms/<token>` with a Secret: as an n8n expression, which n8n
 * evaluates to register the webhook and the editor to show its URL (n8n's string `hash('sha256')`
 * is the same hex digest), and as the resolver n8n 2.x reads instead when the parameters are static.
 */
export const SMS_URL_PATH = {
	template:
		`={{ ($parameter.options || {}).secret ? "${SMS_PATH}/" + ` +
		`String($parameter.options.secret).hash("sha256").slice(0, ${SMS_TOKEN_LENGTH}) : "${SMS_PATH}" }}`,
	resolve: (parameters: IDataObject): string => {
		// Read as the expression reads it: a Secret that is not truthy is none.
		const secret = ((parameters.options ?? {}) as IDataObject).secret;
		return secret ? `${SMS_PATH}/${smsToken(String(secret))}` : SMS_PATH;
	},
};

/** Whether a request's path is the SMS URL's (`…/sms` or `…/sms/<token>`, the one pasted by hand). */
const SMS_URL = new RegExp(`/${SMS_PATH}(?:/[0-9a-f]+)?$`, 'i');

export function onSmsUrl(path: string): boolean {
	return SMS_URL.test(path);
}

// ---- Compared: the secret a callback carries ------------------------------------------------

function digest(value: string): Buffer {
	return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison (of digests, so the lengths match and leak nothing either). */
function secretMatches(given: unknown, secret: string): boolean {
	const text = Array.isArray(given) || typeof given !== 'string' ? undefined : given;
	if (text === undefined) return false;
	return timingSafeEqual(digest(text), digest(secret));
}

/**
 * The secret a callback must carry in `?secret=`: the Secret the user set, else (version 1.1) the
 * one generated at activation. Undefined when a request without one is accepted: node version 1
 * with no Secret (as it always did), or a workflow not activated since the secret is generated.
 */
function expectedSecret(context: IWebhookFunctions, settings: TriggerSettings): string | undefined {
	if (settings.secret !== '') return settings.secret;
	return settings.generatesSecret ? generatedSecret(context) : undefined;
}

/**
 * Whether a callback carries the secret it must: on the SMS URL, the token of the Secret as it is
 * now in its path (n8n registered the path from it); else `?secret=` (the SMS URL without a Secret,
 * `…/sms`, needs it as the call URL does).
 */
export function carriesSecret(
	context: IWebhookFunctions,
	settings: TriggerSettings,
	request: { path: string; query: unknown },
): boolean {
	const { path } = request;
	if (onSmsUrl(path) && settings.secret !== '') {
		const token = path.slice(path.lastIndexOf('/') + 1);
		if (secretMatches(token, smsToken(settings.secret))) return true;
	}
	const secret = expectedSecret(context, settings);
	if (secret === undefined) return true;
	const query = isPlainObject(request.query) ? request.query : {};
	return secretMatches(query[SECRET_PARAM], secret);
}

// ---- Masked: in every error and log line ----------------------------------------------------

/** The trigger's own Secret, or '' (the parameter may be unreadable in a broken workflow). */
function ownSecret(context: IHookFunctions): string {
	try {
		return secretOption((context.getNodeParameter('options', {}) ?? {}) as IDataObject);
	} catch {
		return '';
	}
}

/** The secrets of this trigger to mask: the user's Secret and the one generated at activation. */
function triggerSecrets(context: IHookFunctions): string[] {
	let generated: string | undefined;
	try {
		generated = generatedSecret(context);
	} catch {
		generated = undefined;
	}
	return [ownSecret(context), generated ?? ''].filter(Boolean);
}

/**
 * An error of a lifecycle method with every secret of this trigger masked wherever n8n shows or
 * stores it (message, description, data): the service's text is untrusted and may quote any URL a
 * number carries. What the shared masker masks anyway is masked too (secret-like parameters, URL
 * passwords).
 */
export function maskedError(context: IHookFunctions, error: unknown): unknown {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	return maskSharedError(error, triggerSecrets(context));
}

/*
 * The trigger's one way to write to n8n's log. Callers' values (a call ID, a caller's number, a
 * refused destination) come from a request anyone can send: a newline in one would forge a log
 * line of its own, and a terminal escape would rewrite what an operator reads. So every control
 * character (C0, DEL, C1, and the Unicode line and paragraph separators) is taken out of the
 * message and of every text in its metadata, and every secret is masked.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Text without control characters (each becomes a space), at most `max` characters. */
export function printable(text: unknown, max = 200): string {
	const value = String(text ?? '').replace(CONTROL, ' ');
	return value.length > max ? `${value.slice(0, max)}…` : value;
}

function cleanMeta(meta: IDataObject | undefined, secrets: string[]): IDataObject | undefined {
	if (meta === undefined) return undefined;
	const clean: IDataObject = {};
	for (const [key, value] of Object.entries(meta))
		clean[key] = typeof value === 'string' ? maskSecrets(printable(value), secrets) : value;
	return clean;
}

export function logLine(
	logger: Logger,
	level: 'info' | 'warn' | 'error',
	message: string,
	options: { meta?: IDataObject; secrets?: string[] } = {},
): void {
	const secrets = options.secrets ?? [];
	const text = `Virtual Number Trigger: ${maskSecrets(printable(message, 2000), secrets)}`;
	try {
		logger[level](text, cleanMeta(options.meta, secrets));
	} catch {
		// A logger that fails never fails the callback or the activation.
	}
}

/** Writes a lifecycle method's log line with every secret of this trigger masked. */
export function logMasked(
	context: IHookFunctions,
	level: 'info' | 'warn' | 'error',
	message: string,
): void {
	logLine(context.logger, level, message, { secrets: triggerSecrets(context) });
}
