/**
 * The callback URL a Virtual Number Trigger registers on a number, and what any number's URL tells:
 * whether it is such a trigger's, in which mode, and what it replaced. Shared by the trigger (which
 * writes and reads it) and by the Virtual Number node (Update never writes a trigger's URL back
 * blindly; Account → Restore Callback URLs puts back what a trigger replaced).
 *
 * A number has one `callback_url`. Its previous URL and option travel inside the URL the trigger
 * registers, so that whatever happens to n8n (a failed activation, a restart, a package removed
 * while its workflows were published), the number itself says what to put back:
 *
 *   https://n8n.example.com/webhook/<webhookId>/webhook?secret=…&vnt=live&vnt_prev=2https%3A%2F%2Fcrm…
 *
 * `vnt` marks a Virtual Number Trigger's URL (`live`: production, `test`: the editor's test URL);
 * `vnt_prev` is the previous option (one digit) followed by the previous URL (empty when there was none).
 * Which secret goes in `secret`, and the SMS URL's token, are the trigger's: VirtualNumberTrigger/secret.ts.
 */
import type { IDataObject } from 'n8n-workflow';

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

/** A record's field as trimmed text ('' when absent). */
export function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value).trim();
}

/** A number's callback as its record holds it (an unreadable option read as the service's default). */
export function callbackOf(record: IDataObject): Callback {
	const option = Number(record.callback_url_option);
	return {
		url: text(record.callback_url),
		option: Number.isInteger(option) && option >= 1 && option <= 3 ? option : DEFAULT_OPTION,
	};
}
