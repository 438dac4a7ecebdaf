/**
 * The trigger's parameters, read and checked once for the lifecycle methods and the webhook, and
 * the rules only the trigger uses: the events it offers, the limits of incoming callbacks, the
 * service's limit on a callback URL, and the Allowed IPs list (addresses and CIDR ranges).
 * Every check fails before any request, naming the field and the fix.
 */
import type { IDataObject, IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../shared/checks';
import { PHONE_LIMITS, PHONE_RULE, phoneDigits } from '../shared/phones';
import { DEFAULT_OPTION, SECRET_PARAM, registeredUrl, type UrlMode } from './callbackUrl';
import { callEnded } from './events/callEnded';
import { callStarted } from './events/callStarted';
import { smsDeliveryStatus } from './events/smsDeliveryStatus';
import type { RouteSettings } from './events/callStarted';
import { smsReceived } from './events/smsReceived';
import { OPT_OUT_DEFAULT, phrasesOf } from './optOut';
import { defaultAllowed, prefixesOf, type AllowedDestinations } from './routeAllowList';

/** Every event the trigger offers, in the order of its Events list; each one is a file in events/. */
export const TRIGGER_EVENTS = [callStarted, callEnded, smsDeliveryStatus, smsReceived];

type TriggerEventKey = string;

export interface TriggerSettings {
	events: TriggerEventKey[];
	/** callback_url_option for the call events chosen: 1 start, 2 end, 3 both; undefined when none. */
	callbackOption?: 1 | 2 | 3;
	scope: 'all' | 'selected';
	/** The numbers typed or picked, digits only (scope 'selected'). */
	selected: string[];
	onExisting: 'replace' | 'fail';
	/** The Secret the user set ('' when none; the generated one is the static data's: callbackSecret.ts). */
	secret: string;
	/** No Secret set under node version 1.1: the trigger generates one for the URLs it registers. */
	generatesSecret: boolean;
	allowList: IpRange[];
	maxBodyBytes: number;
	/** Start the workflow once per call ID for Call Started (the service may repeat the start callback). */
	onceCallStarted: boolean;
	/** SMS Received: only messages starting with one of these phrases start the workflow (all when empty). */
	keywords: string[];
	/** SMS Received: phrases whose message is marked `optOut: true` (read as optOut.ts reads them). */
	optOutKeywords: string[];
	/** Call Started → Respond With: A Destination From the Workflow; undefined for Nothing. */
	route?: RouteSettings;
}

type TriggerContext = IHookFunctions | IWebhookFunctions;

/** callback_url_option for the chosen events: each call event's bit (1 start, 2 end), 3 for both. */
function callbackOptionFor(events: TriggerEventKey[]): 1 | 2 | 3 | undefined {
	let option = 0;
	for (const event of TRIGGER_EVENTS)
		if (events.includes(event.key)) option |= event.callbackOption ?? 0;
	return option === 0 ? undefined : (option as 1 | 2 | 3);
}

/** The events' names in the user's words: "Call Started, Call Ended or SMS Delivery Status". */
function eventNames(): string {
	const names = TRIGGER_EVENTS.map(({ option }) => option.name);
	return `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`;
}

function fail(node: INode, field: string, problem: string, fix: string): never {
	throw new NodeOperationError(node, `${field}: ${problem}`, { description: fix });
}

export function readSettings(this: TriggerContext): TriggerSettings {
	const node = this.getNode();
	const rawEvents = this.getNodeParameter('events', []) as unknown;
	const events = (Array.isArray(rawEvents) ? rawEvents : []).filter(
		(event): event is TriggerEventKey => TRIGGER_EVENTS.some(({ key }) => key === event),
	);
	if (events.length === 0) {
		fail(node, 'Events', 'choose at least one event', `Pick ${eventNames()}.`);
	}
	const callbackOption = callbackOptionFor(events);
	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;

	const secret = String(options.secret ?? '');
	const generatesSecret = generatesSecretFor(node, events, secret);
	const { ranges, invalid } = parseIpAllowList(String(options.allowedIps ?? ''));
	if (invalid.length > 0) {
		fail(
			node,
			'Allowed IPs',
			`not an IP address or CIDR range: ${invalid.map((entry) => `"${entry}"`).join(', ')}`,
			'Enter addresses such as 203.0.113.10 or ranges such as 198.51.100.0/24 or 2001:db8::/32, separated by commas.',
		);
	}
	const kb = Number(options.maxBodyKb ?? TRIGGER_LIMITS.maxBodyKb.default);
	const { min, max } = TRIGGER_LIMITS.maxBodyKb;
	if (!Number.isFinite(kb) || kb < min || kb > max) {
		fail(
			node,
			'Max Body Size (KB)',
			`must be a number from ${min} to ${max} (got ${String(options.maxBodyKb)})`,
			'Correct the option.',
		);
	}

	let scope: TriggerSettings['scope'] = 'all';
	let selected: string[] = [];
	let onExisting: TriggerSettings['onExisting'] = 'replace';
	if (callbackOption !== undefined) {
		scope = this.getNodeParameter('numbers', 'all') === 'selected' ? 'selected' : 'all';
		onExisting =
			this.getNodeParameter('existingCallback', 'replace') === 'fail' ? 'fail' : 'replace';
		if (scope === 'selected') selected = readSelectedNumbers.call(this, node);
	}

	return {
		events,
		callbackOption,
		scope,
		selected,
		onExisting,
		secret,
		generatesSecret,
		allowList: ranges,
		maxBodyBytes: Math.floor(kb * 1024),
		onceCallStarted: options.onceCallStarted === true,
		keywords: phrasesOf(String(options.keywords ?? '')),
		optOutKeywords: phrasesOf(String(options.optOutKeywords ?? OPT_OUT_DEFAULT)),
		route: readRoute(node, events, options),
	};
}

/** Respond With: A Destination From the Workflow (Call Started only), its field and deadline. */
function readRoute(
	node: INode,
	events: TriggerEventKey[],
	options: IDataObject,
): RouteSettings | undefined {
	if (options.respondWith !== 'destination' || !events.includes(callStarted.key)) return undefined;
	const field = String(options.destinationField ?? 'destination').trim();
	if (field === '') {
		fail(
			node,
			'Destination Field',
			'is empty',
			"Name the last node's field that holds the number.",
		);
	}
	const seconds = Number(options.routeDeadlineSec ?? TRIGGER_LIMITS.routeDeadlineSec.default);
	const { min, max } = TRIGGER_LIMITS.routeDeadlineSec;
	if (!Number.isFinite(seconds) || seconds < min || seconds > max) {
		fail(
			node,
			'Deadline (Seconds)',
			`must be a number from ${min} to ${max} (got ${String(options.routeDeadlineSec)})`,
			'The service holds the caller while it waits: keep the deadline short.',
		);
	}
	const allowed = ['israel', 'international', 'any'].includes(String(options.allowedDestinations))
		? (options.allowedDestinations as AllowedDestinations)
		: defaultAllowed(node.typeVersion);
	const prefixes = prefixesOf(String(options.allowedPrefixes ?? ''));
	return { field, deadlineMs: Math.round(seconds * 1000), allowList: { allowed, prefixes } };
}

/** The events whose URL the user pastes by hand (nothing registers it, so no generated secret can be on it). */
const PASTED_URL_EVENTS = [smsDeliveryStatus, smsReceived];

/**
 * Whether the trigger generates the secret of its URLs: version 1.1 with no Secret set. It refuses
 * every callback without a secret, so its SMS events (pasted URLs) need the Secret the user sets
 * and pastes with the URL: activation fails without one.
 */
function generatesSecretFor(node: INode, events: TriggerEventKey[], secret: string): boolean {
	if (node.typeVersion < 1.1 || secret !== '') return false;
	const pasted = PASTED_URL_EVENTS.filter(({ key }) => events.includes(key));
	if (pasted.length === 0) return true;
	const names = pasted.map(({ option }) => option.name).join(' and ');
	fail(
		node,
		'Secret',
		`${names} need${pasted.length === 1 ? 's' : ''} a Secret: their URL is pasted by hand, and a callback ` +
			'without a secret is refused',
		"Add Options → Secret (a long random text), then paste this trigger's Production URL followed by " +
			`?${SECRET_PARAM}=<your Secret> (see the notice under Events).`,
	);
}

/**
 * A virtual number as typed or picked (`+972 72-200 0100`), as the digits the service lists it by;
 * undefined when it is none.
 */
function virtualnumDigits(raw: string): string | undefined {
	const digits = phoneDigits(raw);
	const { virtualnumMinDigits, maxDigits } = PHONE_LIMITS;
	return digits !== undefined && digits.length >= virtualnumMinDigits && digits.length <= maxDigits
		? digits
		: undefined;
}

function readSelectedNumbers(this: TriggerContext, node: INode): string[] {
	const collection = (this.getNodeParameter('virtualnums', {}) ?? {}) as IDataObject;
	const entries = Array.isArray(collection.number) ? (collection.number as IDataObject[]) : [];
	const numbers: string[] = [];
	entries.forEach((entry, index) => {
		const locator = entry.virtualnum as IDataObject | string | undefined;
		const raw = String(
			(typeof locator === 'object' && locator !== null ? locator.value : locator) ?? '',
		).trim();
		const digits = virtualnumDigits(raw);
		if (digits === undefined) {
			fail(
				node,
				`Virtual Numbers, entry ${index + 1}`,
				raw === ''
					? 'no number chosen'
					: `"${raw}" is not a virtual number (${PHONE_LIMITS.virtualnumMinDigits} to ${PHONE_LIMITS.maxDigits} ` +
							`digits: ${PHONE_RULE})`,
				'Pick the number from the list, or type it (e.g. 0722000100).',
			);
		}
		if (!numbers.includes(digits)) numbers.push(digits);
	});
	if (numbers.length === 0) {
		fail(
			node,
			'Virtual Numbers',
			'add at least one number',
			'Add the numbers whose calls should start the workflow, or choose All Numbers of the Account.',
		);
	}
	return numbers;
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
		fail(
			node,
			'Callback URL',
			`the trigger's URL${secret ? ' with the secret' : ''} ${problem}`,
			secret
				? 'Use a shorter Secret, or set a shorter WEBHOOK_URL for n8n.'
				: "Set n8n's WEBHOOK_URL to the public https:// address the service can reach.",
		);
	}
}

// ---- limits, callback URL rule, Allowed IPs --------------------------------------------------

/** Limits this package chooses for incoming callbacks (the spec shows none). */
export const TRIGGER_LIMITS = {
	/** Callbacks carry a handful of fields; anything far larger is not one. */
	maxBodyKb: { default: 64, min: 1, max: 16 * 1024 },
	/**
	 * How long a routed call waits for the workflow's destination. The service holds the caller
	 * meanwhile and its own limit is not shown: 3 s by default, at most 10 s.
	 */
	routeDeadlineSec: { default: 3, min: 0.5, max: 10 },
	/** Name of the query parameter that carries the trigger's secret. */
	secretParam: SECRET_PARAM,
} as const;

/** Why a callback URL cannot be registered on a number, or undefined when it can. */
function callbackUrlProblem(url: string): string | undefined {
	if (!/^https?:\/\/[^\s/]+/i.test(url)) return 'must be an http:// or https:// address';
	const max = LIMITS.callbackUrl.maxLength;
	if (url.length > max)
		return `is ${url.length} characters long; the service accepts at most ${max}`;
	return undefined;
}

/** One allowed address or range, as 16 bytes (IPv4 as IPv4-mapped IPv6) and a prefix length. */
interface IpRange {
	text: string;
	bytes: number[];
	prefix: number;
}

/** An IPv4 or IPv6 address as 16 bytes (IPv4 mapped to ::ffff:a.b.c.d), or undefined. */
function parseIpAddress(raw: string): number[] | undefined {
	let text = raw.trim();
	if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
	const zone = text.indexOf('%');
	if (zone !== -1) text = text.slice(0, zone);
	if (!text.includes(':')) {
		const v4 = parseIpv4(text);
		return v4 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4] : undefined;
	}
	return parseIpv6(text);
}

function parseIpv4(text: string): number[] | undefined {
	const parts = text.split('.');
	if (parts.length !== 4) return undefined;
	const bytes: number[] = [];
	for (const part of parts) {
		if (!/^\d{1,3}$/.test(part)) return undefined;
		const value = Number(part);
		if (value > 255) return undefined;
		bytes.push(value);
	}
	return bytes;
}

function parseIpv6(text: string): number[] | undefined {
	if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const groups = (half: string): number[] | undefined => {
		if (half === '') return [];
		const out: number[] = [];
		const parts = half.split(':');
		for (let i = 0; i < parts.length; i++) {
			const part = parts[i];
			if (i === parts.length - 1 && part.includes('.')) {
				const v4 = parseIpv4(part);
				if (!v4) return undefined;
				out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
			} else {
				if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
				out.push(parseInt(part, 16));
			}
		}
		return out;
	};
	const head = groups(halves[0]);
	const tail = halves.length === 2 ? groups(halves[1]) : [];
	if (!head || !tail) return undefined;
	let all: number[];
	if (halves.length === 2) {
		const missing = 8 - head.length - tail.length;
		if (missing < 1) return undefined;
		all = [...head, ...new Array<number>(missing).fill(0), ...tail];
	} else {
		all = head;
	}
	if (all.length !== 8) return undefined;
	return all.flatMap((group) => [group >> 8, group & 0xff]);
}

/**
 * Reads an allowed-IP list: addresses or CIDR ranges, IPv4 or IPv6, separated by commas, spaces
 * or new lines. IPv4 entries also match IPv6-mapped IPv4 clients (::ffff:a.b.c.d).
 */
function parseIpAllowList(text: string): { ranges: IpRange[]; invalid: string[] } {
	const ranges: IpRange[] = [];
	const invalid: string[] = [];
	for (const entry of text.split(/[\s,;]+/).filter(Boolean)) {
		const [address, prefixText, extra] = entry.split('/');
		const bytes = parseIpAddress(address);
		const isV4 = bytes !== undefined && !address.includes(':');
		const max = isV4 ? 32 : 128;
		const prefix =
			prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
		if (!bytes || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
			invalid.push(entry);
			continue;
		}
		ranges.push({ text: entry, bytes, prefix: isV4 ? prefix + 96 : prefix });
	}
	return { ranges, invalid };
}

/** Whether the client address falls in one of the ranges. */
export function ipAllowed(ip: string | undefined, ranges: IpRange[]): boolean {
	if (!ip) return false;
	const bytes = parseIpAddress(ip);
	if (!bytes) return false;
	return ranges.some((range) => {
		for (let bit = 0; bit < range.prefix; bit += 8) {
			const bits = Math.min(8, range.prefix - bit);
			const mask = (0xff << (8 - bits)) & 0xff;
			const index = bit / 8;
			if ((bytes[index] & mask) !== (range.bytes[index] & mask)) return false;
		}
		return true;
	});
}
