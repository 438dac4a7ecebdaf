/**
 * The plan of an activation, decided before any change and without any request: whose URL each
 * number carries now, what the trigger will register on it (its previous callback inside), which
 * numbers it must refuse to take (a number has one callback URL and only one trigger can receive
 * its calls), and the refusal in the user's words.
 *
 * - Another workflow's production trigger holds the number: refused (its calls would silently
 *   stop; and after both were deactivated the number would point at a dead URL).
 * - Listening for a test event never takes a number from a production trigger (this workflow's
 *   or another's), so test mode never costs production events.
 * - A production activation takes a number over from a test URL (test listening is transient),
 *   keeping the callback that URL had replaced.
 */
import type { IDataObject } from 'n8n-workflow';

import { LIMITS } from '../../shared/checks';
import { maskSecrets } from '../../shared/masking';
import {
	DEFAULT_OPTION,
	baseOf,
	callbackOf,
	isTriggerUrl,
	marksOf,
	registeredUrl,
	text,
	type Callback,
	type UrlMode,
} from '../../shared/triggerUrl';
import type { OwnTrigger } from '../types';

/** Whose URL a number carries. */
type Owner =
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

function ownerOf(url: string, own: OwnTrigger): Owner {
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

type RefusalKind = 'foreign' | 'otherLive' | 'otherTest' | 'ownLive' | 'elsewhere' | 'tooLong';

interface Refusal {
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

interface Plan {
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

export function isRegistered(record: IDataObject, own: OwnTrigger): boolean {
	const { url, option } = callbackOf(record);
	const marks = marksOf(url);
	return (
		baseOf(url) === own.base &&
		option === own.option &&
		marks.mode === own.mode &&
		marks.previous !== undefined &&
		marks.secret === own.secret
	);
}

/** Why a number this activation wrote is now someone else's, in the words of a refusal. */
function lostTo(number: string, url: string, own: OwnTrigger): Refusal {
	const owner = ownerOf(url, own);
	if (owner.kind !== 'trigger') return { number, kind: 'foreign', current: url };
	return {
		number,
		kind: owner.mode === 'live' ? 'otherLive' : 'otherTest',
		current: url,
		previous: owner.previous,
	};
}

/** The numbers this activation wrote that now carry another trigger's or a foreign URL (`current`: as re-read). */
export function lostSince(updates: Update[], current: IDataObject[], own: OwnTrigger): Refusal[] {
	const lost: Refusal[] = [];
	for (const update of updates) {
		const url = callbackOf(
			current.find((record) => text(record.virtualnum) === update.number) ?? {},
		).url;
		if (url !== update.url && ownerOf(url, own).kind !== 'mine')
			lost.push(lostTo(update.number, url, own));
	}
	return lost;
}

/** Numbers named in one message; the rest are counted. */
const NAMED_IN_ERRORS = 10;

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
		'Remove those numbers from the trigger, clear their callback URL, or set "If a Number Already Has a ' +
		'Callback URL" to Replace It and Restore It on Deactivation.',
	otherLive:
		'A number has one callback URL, so only one workflow can receive its calls: deactivate the other workflow ' +
		"first (it puts the number's previous callback URL back), or remove the number from one of the triggers.",
	otherTest: 'Try again when that workflow stops listening for a test event (at most two minutes).',
	ownLive:
		"Listening for a test event would take the number's calls away from the active workflow for up to two " +
		'minutes. Test with numbers the active workflow does not use (Selected Numbers), or deactivate the ' +
		"workflow first; the active workflow's runs are in its Executions list.",
	elsewhere:
		"If n8n's WEBHOOK_URL changed, put the number's original callback URL (below) back with the Virtual " +
		"Number node's Account → Restore Callback URLs (Instance Address: the old address), then activate again. If " +
		'another n8n runs a copy of this workflow, deactivate it there first.',
	tooLong:
		`The trigger keeps each number's previous callback URL inside the URL it registers (the service accepts at ` +
		`most ${LIMITS.callbackUrl.maxLength} characters), so that n8n can always put it back. Shorten or clear that ` +
		`URL, or use a shorter Secret.`,
};

/**
 * What to do, in the message itself where the editor may show nothing else: a refused "Listen for
 * test event" appears as one line in the node's panel.
 */
const TODO: Partial<Record<RefusalKind, string>> = {
	ownLive:
		'To listen for a test event, choose numbers the active workflow does not use, or deactivate the workflow first.',
};

function shown(refusal: Refusal): string {
	const original =
		refusal.previous && (refusal.kind === 'otherLive' || refusal.kind === 'elsewhere')
			? `; its original callback URL, kept in that URL: ` +
				`${refusal.previous.url === '' ? 'none' : maskSecrets(refusal.previous.url)} (option ` +
				`${refusal.previous.option})`
			: '';
	return `${refusal.number} (${maskSecrets(refusal.current) || 'none'}${original})`;
}

/** The message and description of a refused activation: the first kind of refusal, then every number. */
export function refusalText(refused: Refusal[]): { message: string; description: string } {
	const kind = refused[0].kind;
	const same = refused.filter((refusal) => refusal.kind === kind);
	const subject = same.length === 1 ? 'The number' : `${same.length} numbers`;
	const todo = TODO[kind] ? `. ${TODO[kind]}` : '';
	const message = `${subject} ${WHAT[kind][same.length === 1 ? 0 : 1]}: ${listNumbers(same.map(shown))}${todo}`;
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

export function rollbackOutcome(
	failedNumber: string,
	changed: number,
	uncertain: boolean,
	notRestored: string[],
): string {
	const maybe = uncertain
		? `The service may have changed ${failedNumber} before the failure, so it was put back as well. `
		: '';
	if (notRestored.length > 0) {
		return (
			`${maybe}Could not put back ${listNumbers(notRestored)}: each still points at this trigger, with its ` +
			`previous callback URL kept inside that URL. n8n's clean-up after this failed activation tries again; if ` +
			`the service still fails, activate and deactivate the workflow once it answers, which puts them back.`
		);
	}
	if (changed === 0 && !uncertain) return 'No number had been changed.';
	if (changed === 0) return maybe.trim();
	return (
		`${maybe}The ${changed} number${changed === 1 ? '' : 's'} already changed ${changed === 1 ? 'was' : 'were'} ` +
		`put back as ${changed === 1 ? 'it was' : 'they were'}.`
	);
}
