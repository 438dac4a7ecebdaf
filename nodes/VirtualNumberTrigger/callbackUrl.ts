/**
 * The URL the trigger puts on a number, and what a number's current URL tells about its owner.
 *
 * A number has one `callback_url`. Its previous URL and option travel inside the URL the trigger
 * registers, so that every path n8n can take is able to restore them without the static data:
 * n8n's clean-up after a failed activation runs `delete` on a Workflow rebuilt from the static
 * data in the database, which never received what `create` wrote in memory (ActiveWorkflowManager
 * `addWebhooks` → `clearWebhooks`); test listening starts from empty static data (TestWebhooks
 * `toWorkflow`); and a callback saved by a webhook process can overwrite the workflow's static data
 * at any time. The number itself is the one record every process reads.
 *
 *   https://n8n.example.com/webhook/<webhookId>/webhook?secret=…&vnt=live&vnt_prev=2https%3A%2F%2Fcrm…
 *
 * `vnt` marks a Virtual Number Trigger's URL (`live`: production, `test`: the editor's test URL);
 * `vnt_prev` is the previous option (one digit) followed by the previous URL (empty when there was none).
 *
 * Every URL the trigger prints, in an error or a log line, has every secret masked (maskSecrets):
 * its own, another workflow's (a number may carry another trigger's URL), a CRM's.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { maskError as maskSharedError, maskSecrets } from '../shared/masking';
import { generatedSecret } from './callbackSecret';
import { logLine } from './logLine';

/** The query parameter that carries the trigger's Secret. */
export const SECRET_PARAM = 'secret';
const MARK_PARAM = 'vnt';
const PREVIOUS_PARAM = 'vnt_prev';
/** Query parameters the trigger itself puts on the URL (removed from the items). */
export const OWN_PARAMS = [MARK_PARAM, PREVIOUS_PARAM] as const;

export type UrlMode = 'live' | 'test';

/** A number's callback as the service holds it. */
export interface Callback {
	url: string;
	option: number;
}

/** The service's default callback_url_option (spec: create_virtualnum). */
export const DEFAULT_OPTION = 2;

/** The URL to register on a number whose callback before the trigger was `previous`. */
export function registeredUrl(
	webhookUrl: string,
	secret: string,
	mode: UrlMode,
	previous: Callback,
): string {
	const params = [
		...(secret ? [`${SECRET_PARAM}=${encodeURIComponent(secret)}`] : []),
		`${MARK_PARAM}=${mode}`,
		`${PREVIOUS_PARAM}=${previous.option}${encodeURIComponent(previous.url)}`,
	];
	return `${webhookUrl}${webhookUrl.includes('?') ? '&' : '?'}${params.join('&')}`;
}

/** The URL without query string or fragment: what identifies one trigger in one mode. */
export function baseOf(url: string): string {
	const end = url.search(/[?#]/);
	return end === -1 ? url : url.slice(0, end);
}

function queryParams(url: string): URLSearchParams | undefined {
	const start = url.indexOf('?');
	if (start === -1) return undefined;
	try {
		return new URLSearchParams(url.slice(start + 1).split('#')[0]);
	} catch {
		return undefined;
	}
}

/** What the trigger wrote into a URL it registered; undefined for any other URL. */
interface TriggerMarks {
	mode?: UrlMode;
	/** Undefined when the URL carries no (readable) previous callback, e.g. one registered by version 0.1. */
	previous?: Callback;
	secret: string;
}

export function marksOf(url: string): TriggerMarks {
	const params = queryParams(url);
	const mode = params?.get(MARK_PARAM);
	const raw = params?.get(PREVIOUS_PARAM) ?? undefined;
	const option = raw === undefined ? NaN : Number(raw.charAt(0));
	return {
		mode: mode === 'live' || mode === 'test' ? mode : undefined,
		previous:
			raw !== undefined && option >= 1 && option <= 3 ? { option, url: raw.slice(1) } : undefined,
		secret: params?.get(SECRET_PARAM) ?? '',
	};
}

/** n8n webhook ids are UUIDs; this trigger's webhook path is `webhook`. */
const TRIGGER_PATH =
	/\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/webhook\/?$/i;

/** Whether a URL is a Virtual Number Trigger's (marked, or the path of one registered by version 0.1). */
export function isTriggerUrl(url: string): boolean {
	return marksOf(url).mode !== undefined || TRIGGER_PATH.test(baseOf(url));
}

// ---- secrets never shown -----------------------------------------------------------------------------

// Masking (secret-like parameters, URL passwords, the given secrets in any form) is the shared,
// linear masker's: the service's text is untrusted and may be long.
export { maskSecrets };

/** The trigger's own secret, or '' (the parameter may be unreadable in a broken workflow). */
function ownSecret(this: IHookFunctions): string {
	try {
		return String(((this.getNodeParameter('options', {}) ?? {}) as IDataObject).secret ?? '');
	} catch {
		return '';
	}
}

/** The error with every secret masked wherever n8n shows or stores it (message, description, data). */
export function maskError(error: unknown, secrets: string[]): unknown {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	return maskSharedError(error, secrets);
}

/** Writes a log line with every secret masked (the user's and the generated one) and no control character. */
export function logMasked(
	context: IHookFunctions,
	level: 'info' | 'warn' | 'error',
	message: string,
): void {
	logLine(context.logger, level, message, { secrets: triggerSecrets(context) });
}

/** The secrets of this trigger to mask: the user's Secret and the one generated at activation. */
export function triggerSecrets(context: IHookFunctions): string[] {
	let generated: string | undefined;
	try {
		generated = generatedSecret(context);
	} catch {
		generated = undefined;
	}
	return [ownSecret.call(context), generated ?? ''].filter(Boolean);
}
