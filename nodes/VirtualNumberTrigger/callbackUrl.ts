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
 * Every URL the trigger prints, in an error or a log line, has every secret masked (masking.ts):
 * its own, another workflow's (a number may carry another trigger's URL), a CRM's.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../shared/checks';
import type { Callback, UrlMode } from './types';

/** The query parameter that carries the trigger's Secret. */
export const SECRET_PARAM = 'secret';
const MARK_PARAM = 'vnt';
const PREVIOUS_PARAM = 'vnt_prev';
/** Query parameters the trigger itself puts on the URL (removed from the items). */
export const OWN_PARAMS = [MARK_PARAM, PREVIOUS_PARAM] as const;

/** The service's default callback_url_option (spec: create_virtualnum). */
export const DEFAULT_OPTION = 2;

/** A record's field as trimmed text ('' when absent). */
export function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value).trim();
}

/** A number's callback as its record (get_virtualnum) carries it. */
export function callbackOf(record: IDataObject): Callback {
	const option = Number(record.callback_url_option);
	return {
		url: text(record.callback_url),
		option: Number.isInteger(option) && option >= 1 && option <= 3 ? option : DEFAULT_OPTION,
	};
}

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

/** Why a callback URL cannot be registered on a number, or undefined when it can. */
function callbackUrlProblem(url: string): string | undefined {
	if (!/^https?:\/\/[^\s/]+/i.test(url)) return 'must be an http:// or https:// address';
	const max = LIMITS.callbackUrl.maxLength;
	if (url.length > max)
		return `is ${url.length} characters long; the service accepts at most ${max}`;
	return undefined;
}

/**
 * Checks the trigger's URL before any request: an http(s) address that, with the secret and the
 * trigger's own parameters, fits the service's limit on a callback URL.
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
