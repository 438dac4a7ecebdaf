/**
 * Deciding, before any change, what activation does with each number: whose URL it carries now,
 * what the trigger will register on it (its previous callback inside), and which numbers it must
 * refuse to take, because a number has one callback URL and only one trigger can receive its calls.
 *
 * - Another workflow's production trigger holds the number: refused (its calls would silently
 *   stop; and after both were deactivated the number would point at a dead URL).
 * - Listening for a test event never takes a number from a production trigger (this workflow's
 *   or another's), so test mode never costs production events.
 * - A production activation takes a number over from a test URL (test listening is transient),
 *   keeping the callback that URL had replaced.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../shared/checks';
import {
	DEFAULT_OPTION,
	baseOf,
	isTriggerUrl,
	marksOf,
	registeredUrl,
	type Callback,
	type UrlMode,
} from './callbackUrl';
import { maskSecrets } from './secrets';
import { callbackOf, text } from './service';

/** This trigger, in the mode it is registering or deregistering in. */
export interface OwnTrigger {
	webhookUrl: string;
	base: string;
	webhookId: string;
	mode: UrlMode;
	secret: string;
	/** callback_url_option for the call events chosen. */
	option: number;
}

/** Whose URL a number carries. */
export type Owner =
	| { kind: 'none' | 'foreign' }
	| { kind: 'mine'; previous?: Callback }
	/** Another trigger's (another workflow, this workflow in the other mode, or this one under another address). */
	| {
			kind: 'trigger';
			mode: UrlMode;
			previous?: Callback;
			sameWebhook: boolean;
			sameOrigin: boolean;
	  };

function originOf(url: string): string {
	const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
	return match ? match[0].toLowerCase() : '';
}

export function ownerOf(url: string, own: OwnTrigger): Owner {
	if (url === '') return { kind: 'none' };
	const marks = marksOf(url);
	if (baseOf(url) === own.base) return { kind: 'mine', previous: marks.previous };
	if (!isTriggerUrl(url)) return { kind: 'foreign' };
	return {
		kind: 'trigger',
		mode: marks.mode ?? 'live',
		previous: marks.previous,
		sameWebhook: baseOf(url).endsWith(`/${own.webhookId}/webhook`),
		sameOrigin: originOf(url) === originOf(own.webhookUrl),
	};
}

export type RefusalKind =
	| 'foreign'
	| 'otherLive'
	| 'otherTest'
	| 'ownLive'
	| 'elsewhere'
	| 'tooLong';

export interface Refusal {
	number: string;
	kind: RefusalKind;
	current: string;
	/** What the number had before the trigger that holds it now, when that URL says. */
	previous?: Callback;
}

export interface Update {
	record: IDataObject;
	number: string;
	/** The number's callback when this activation started, to roll back to. */
	start: Callback;
	/** The URL to register (its previous callback inside). */
	url: string;
}

export interface Plan {
	updates: Update[];
	refused: Refusal[];
	/** Numbers already carrying exactly the URL and option to register. */
	unchanged: number;
}

/** The callback a number had before any trigger, or the refusal to take it. */
function previousFor(
	owner: Owner,
	start: Callback,
	own: OwnTrigger,
	options: { onExisting: 'replace' | 'fail'; legacy?: Callback },
): Callback | RefusalKind {
	switch (owner.kind) {
		case 'none':
			return { url: '', option: start.option };
		case 'foreign':
			return options.onExisting === 'fail' ? 'foreign' : start;
		case 'mine':
			// Registered by an earlier activation (or one whose clean-up failed): keep what it replaced.
			return owner.previous ?? options.legacy ?? { url: '', option: DEFAULT_OPTION };
		case 'trigger':
			if (owner.sameWebhook && !owner.sameOrigin) return 'elsewhere';
			if (owner.mode === 'live') return owner.sameWebhook ? 'ownLive' : 'otherLive';
			if (own.mode === 'test' || owner.previous === undefined) return 'otherTest';
			return owner.previous;
	}
}

export function planRegistration(
	records: IDataObject[],
	own: OwnTrigger,
	onExisting: 'replace' | 'fail',
	legacy: Map<string, Callback>,
): Plan {
	const plan: Plan = { updates: [], refused: [], unchanged: 0 };
	for (const record of records) {
		const number = text(record.virtualnum);
		const start = callbackOf(record);
		const owner = ownerOf(start.url, own);
		const previous = previousFor(owner, start, own, { onExisting, legacy: legacy.get(number) });
		if (typeof previous === 'string') {
			plan.refused.push({
				number,
				kind: previous,
				current: start.url,
				previous: 'previous' in owner ? owner.previous : undefined,
			});
			continue;
		}
		const url = registeredUrl(own.webhookUrl, own.secret, own.mode, previous);
		if (url.length > LIMITS.callbackUrl.maxLength) {
			plan.refused.push({ number, kind: 'tooLong', current: previous.url });
			continue;
		}
		if (start.url === url && start.option === own.option) plan.unchanged++;
		else plan.updates.push({ record, number, start, url });
	}
	return plan;
}

// ---- refusals, in the user's words -------------------------------------------------------------

/** Numbers named in one message; the rest are counted. */
export const NAMED_IN_ERRORS = 10;

export function listNumbers(numbers: string[]): string {
	const named = numbers.slice(0, NAMED_IN_ERRORS).join(', ');
	return numbers.length > NAMED_IN_ERRORS
		? `${named} and ${numbers.length - NAMED_IN_ERRORS} more`
		: named;
}

/** What is wrong, for one number and for several. */
const WHAT: Record<RefusalKind, [string, string]> = {
	foreign: ['already has another callback URL', 'already have another callback URL'],
	otherLive: [
		"already reports its calls to another workflow's Virtual Number Trigger",
		"already report their calls to another workflow's Virtual Number Trigger",
	],
	otherTest: [
		"is being listened on by another workflow's test URL",
		"are being listened on by another workflow's test URL",
	],
	ownLive: [
		"points at this workflow's production URL (the workflow is active)",
		"point at this workflow's production URL (the workflow is active)",
	],
	elsewhere: [
		"points at this trigger's URL under another address",
		"point at this trigger's URL under another address",
	],
	tooLong: [
		"has a callback URL too long to be kept inside the trigger's URL",
		"have callback URLs too long to be kept inside the trigger's URL",
	],
};

const FIX: Record<RefusalKind, string> = {
	foreign:
		'Remove those numbers from the trigger, clear their callback URL, or set "If a Number Already Has a Callback URL" to Replace It and Restore It on Deactivation.',
	otherLive:
		"A number has one callback URL, so only one workflow can receive its calls: deactivate the other workflow first (it puts the number's previous callback URL back), or remove the number from one of the triggers.",
	otherTest: 'Try again when that workflow stops listening for a test event (at most two minutes).',
	ownLive:
		"Listening for a test event would take the number's calls away from the active workflow for up to two minutes. Test with numbers the active workflow does not use (Selected Numbers), or deactivate the workflow first; the active workflow's runs are in its Executions list.",
	elsewhere:
		"If n8n's WEBHOOK_URL changed, set the number's callback URL back to its original (below) with the Virtual Number node's Update operation, then activate again. If another n8n runs a copy of this workflow, deactivate it there first.",
	tooLong: `The trigger keeps each number's previous callback URL inside the URL it registers (the service accepts at most ${LIMITS.callbackUrl.maxLength} characters), so that n8n can always put it back. Shorten or clear that URL, or use a shorter Secret.`,
};

function shown(refusal: Refusal): string {
	const original =
		refusal.previous && (refusal.kind === 'otherLive' || refusal.kind === 'elsewhere')
			? `; its original callback URL, kept in that URL: ${refusal.previous.url === '' ? 'none' : maskSecrets(refusal.previous.url)} (option ${refusal.previous.option})`
			: '';
	return `${refusal.number} (${maskSecrets(refusal.current) || 'none'}${original})`;
}

/** The message and description of a refused activation: the first kind of refusal, then every number. */
export function refusalText(refused: Refusal[]): { message: string; description: string } {
	const kind = refused[0].kind;
	const same = refused.filter((refusal) => refusal.kind === kind);
	const subject = same.length === 1 ? 'The number' : `${same.length} numbers`;
	const message = `${subject} ${WHAT[kind][same.length === 1 ? 0 : 1]}: ${same.slice(0, NAMED_IN_ERRORS).map(shown).join(', ')}${same.length > NAMED_IN_ERRORS ? ` and ${same.length - NAMED_IN_ERRORS} more` : ''}`;
	const kinds = [...new Set(refused.map((refusal) => refusal.kind))];
	const others = refused.filter((refusal) => refusal.kind !== kind);
	const rest =
		others.length > 0
			? ` Also: ${others
					.slice(0, NAMED_IN_ERRORS)
					.map((refusal) => `${shown(refusal)} ${WHAT[refusal.kind][0]}`)
					.join('; ')}.`
			: '';
	return {
		message,
		description: `Nothing was changed. ${kinds.map((k) => FIX[k]).join(' ')}${rest}`,
	};
}
