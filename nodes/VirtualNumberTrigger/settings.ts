/**
 * The trigger's parameters, read and checked once for the lifecycle methods and the webhook.
 * Every check fails before any request, naming the field and the fix.
 */
import type { IDataObject, IHookFunctions, INode, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PHONE_LIMITS, PHONE_RULE, phoneDigits } from '../shared/phones';
import { DEFAULT_OPTION, registeredUrl, type UrlMode } from './callbackUrl';
import { EVENTS, type TriggerEventKey } from './description';
import { TRIGGER_LIMITS, callbackUrlProblem, parseIpAllowList, type IpRange } from './rules';

export interface TriggerSettings {
	events: TriggerEventKey[];
	/** callback_url_option for the call events chosen: 1 start, 2 end, 3 both; undefined when none. */
	callbackOption?: 1 | 2 | 3;
	scope: 'all' | 'selected';
	/** The numbers typed or picked, digits only (scope 'selected'). */
	selected: string[];
	onExisting: 'replace' | 'fail';
	secret: string;
	allowList: IpRange[];
	maxBodyBytes: number;
	/** Start the workflow once per call ID for Call Started (the service may repeat the start callback). */
	onceCallStarted: boolean;
}

type TriggerContext = IHookFunctions | IWebhookFunctions;

export function callbackOptionFor(events: TriggerEventKey[]): 1 | 2 | 3 | undefined {
	const start = events.includes('callStarted');
	const end = events.includes('callEnded');
	return start && end ? 3 : start ? 1 : end ? 2 : undefined;
}

function fail(node: INode, field: string, problem: string, fix: string): never {
	throw new NodeOperationError(node, `${field}: ${problem}`, { description: fix });
}

export function readSettings(this: TriggerContext): TriggerSettings {
	const node = this.getNode();
	const rawEvents = this.getNodeParameter('events', []) as unknown;
	const events = (Array.isArray(rawEvents) ? rawEvents : []).filter(
		(event): event is TriggerEventKey =>
			Object.prototype.hasOwnProperty.call(EVENTS, String(event)),
	);
	if (events.length === 0) {
		fail(
			node,
			'Events',
			'choose at least one event',
			'Pick Call Started, Call Ended or SMS Delivery Status.',
		);
	}
	const callbackOption = callbackOptionFor(events);
	const options = (this.getNodeParameter('options', {}) ?? {}) as IDataObject;

	const secret = String(options.secret ?? '');
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
		allowList: ranges,
		maxBodyBytes: Math.floor(kb * 1024),
		onceCallStarted: options.onceCallStarted === true,
	};
}

/** A virtual number as typed or picked (`+972 72-200 0100`), as the digits the service lists it by; undefined when it is none. */
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
					: `"${raw}" is not a virtual number (${PHONE_LIMITS.virtualnumMinDigits} to ${PHONE_LIMITS.maxDigits} digits: ${PHONE_RULE})`,
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
