/**
 * The trigger's webhook lifecycle (checkExists, create, delete).
 *
 * Which n8n path calls which method, with which static data (read in n8n 2.40.7, packages/cli/src;
 * docs/trigger.md has the table). Only the `default` entry has lifecycle methods (the GET entry is
 * named `setup`), so each path calls each method once.
 *
 * n8n 2.x's publication service (the default; workflows/publication, workflows/triggers):
 * - Publish: a Workflow built from the database runs checkExists, then create; a failure is retried
 *   up to five times, and after each failed attempt the registrar runs delete on the SAME in-memory
 *   Workflow. A workflow whose trigger failed stays published, with the error shown in the editor.
 * - Unpublish: delete (up to three attempts) on a Workflow built from the database.
 * - Restart: nothing is called for webhook triggers.
 *
 * ActiveWorkflowManager (n8n 1.x, and 2.x with N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false):
 * - Activation: checkExists, then create, on a Workflow built from the database; the static data is
 *   saved on success.
 * - Activation that fails: `clearWebhooks` runs delete on a Workflow REBUILT FROM THE DATABASE (never
 *   what create wrote in memory), then the workflow service's `remove` does the same again.
 * - Deactivation: delete on a Workflow built from the database; an error is only logged.
 * - Restart (`init`): checkExists (true while the numbers still point at the trigger), then create.
 *
 * Both: Listen for test event (TestWebhooks) runs checkExists/create on a Workflow with EMPTY static
 * data and the webhook-test URL, and delete when listening ends; callbacks (LiveWebhooks) run on a
 * Workflow built from the database, whose static data n8n saves afterwards (whole object, last
 * writer wins) in whichever process received them (queue mode: a webhook processor).
 *
 * So delete must restore without anything create wrote: the previous callback of every number
 * travels inside the URL the trigger registers (callbackUrl.ts), and delete finds the numbers from
 * the parameters and the service. The static data holds only version 0.1's records
 * (`registrations`, read to restore the numbers that version registered) and the Call Started
 * dedupe (events/callStarted.ts).
 */
import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { LIMITS } from '../shared/checks';
import { asNodeError } from '../shared/errors';
import { inPool } from '../shared/pool';
import { NOT_IN_ACCOUNT_CODE } from '../shared/statusCodes';
import { networkCodeOfFailure, serviceCodeOf } from '../shared/transport/http';
import { virtualnumRequest } from '../shared/transport/virtualnumApi';
import { getAllVirtualnums, getVirtualnum, settingsAsRead } from '../shared/virtualnums';
import {
	DEFAULT_OPTION,
	baseOf,
	isTriggerUrl,
	logMasked,
	marksOf,
	maskSecrets,
	registeredUrl,
	type Callback,
	type UrlMode,
} from './callbackUrl';
import { activationSecret, generatedSecret } from './callbackSecret';
import { checkTriggerUrl, readSettings, type TriggerSettings } from './settings';

function webhookUrlOf(this: IHookFunctions): string {
	const url = this.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(this.getNode(), 'n8n did not give this trigger a webhook URL', {
			description: 'Save the workflow and try again.',
		});
	}
	return url;
}

/**
 * This trigger as it registers: the secret on its URL is the user's Secret, else the one generated
 * at activation (callbackSecret.ts); `secret` is '' only for checkExists before any activation.
 */
function ownTrigger(
	this: IHookFunctions,
	settings: TriggerSettings,
	option: number,
	secret: string,
): OwnTrigger {
	const webhookUrl = webhookUrlOf.call(this);
	const mode = this.getMode() === 'manual' ? 'test' : 'live';
	checkTriggerUrl(this.getNode(), webhookUrl, secret, mode);
	return {
		webhookUrl,
		base: baseOf(webhookUrl),
		webhookId: String(this.getNode().webhookId ?? ''),
		mode,
		secret,
		option,
	};
}

// ---- version 0.1's records (static data) --------------------------------------------------------

interface LegacyRegistration {
	numbers?: Record<string, { previousUrl?: string; previousOption?: number }>;
}

function legacyRegistrations(this: IHookFunctions): Record<string, LegacyRegistration> | undefined {
	const saved = (this.getWorkflowStaticData('node') as IDataObject).registrations;
	return saved && typeof saved === 'object'
		? (saved as Record<string, LegacyRegistration>)
		: undefined;
}

/** What version 0.1 remembered of each number it registered at this URL. */
function legacyFor(this: IHookFunctions, base: string): Map<string, Callback> {
	const registration = legacyRegistrations.call(this)?.[base];
	const numbers = Object.entries(registration?.numbers ?? {});
	return new Map(
		numbers.map(([number, saved]) => [
			number,
			{ url: text(saved.previousUrl), option: Number(saved.previousOption) || DEFAULT_OPTION },
		]),
	);
}

/** Forgets version 0.1's records at this URL, but for the numbers still to restore. */
function dropLegacy(this: IHookFunctions, base: string, keep: string[] = []): void {
	const all = legacyRegistrations.call(this);
	if (!all?.[base]) return;
	const copy = JSON.parse(JSON.stringify(all)) as Record<string, LegacyRegistration>;
	const numbers = copy[base].numbers ?? {};
	for (const number of Object.keys(numbers)) if (!keep.includes(number)) delete numbers[number];
	if (Object.keys(numbers).length === 0) delete copy[base];
	const data = this.getWorkflowStaticData('node');
	// The whole object is replaced, so n8n sees the change and saves it.
	if (Object.keys(copy).length === 0) delete data.registrations;
	else data.registrations = copy;
}

// ---- checkExists -------------------------------------------------------------------------------

function isRegistered(record: IDataObject, own: OwnTrigger): boolean {
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

export async function checkRegistration(this: IHookFunctions): Promise<boolean> {
	const settings = readSettings.call(this);
	if (settings.callbackOption === undefined) return true; // SMS only: nothing is registered on the service
	const secret = settings.generatesSecret ? generatedSecret(this) : settings.secret;
	// Not activated since the secret is generated: create generates it and puts it on every URL.
	if (secret === undefined) return false;
	const own = ownTrigger.call(this, settings, settings.callbackOption, secret);
	let records: IDataObject[];
	try {
		records = await chosenRecords.call(this, settings);
	} catch (error) {
		// A selected number that left the account: registering again reports it properly.
		if (isNotInAccount(error)) {
			logMasked(this, 'info', `registering again: ${describe(error)}`);
			return false;
		}
		throw asNodeError(this.getNode(), error);
	}
	return records.length > 0 && records.every((record) => isRegistered(record, own));
}

// ---- one registration at a time per account ---------------------------------------------------

/*
 * The service has no compare-and-set: two activations that both read a number before either wrote
 * would both take it, and the one written first would stay active without ever receiving a call.
 * n8n runs activations of several workflows at once (2.x publishes up to 5 in parallel) in one
 * process, so creates and deletes against one service host wait for each other here (by host, not
 * by credential: two credentials may reach one account). The queue is the only state the trigger
 * keeps in memory: it holds no data, only the order of work in this process. Across processes (two
 * n8n installations on one account), create re-reads what it wrote before deciding (verifyTaken).
 */
const hostQueues = new Map<string, Promise<unknown>>();

async function oneAtATime<T>(
	context: IHookFunctions,
	work: (this: IHookFunctions) => Promise<T>,
): Promise<T> {
	const key = originOf(
		String((await context.getCredentials('virtualnumApi')).baseUrl ?? '').trim(),
	);
	const run = (hostQueues.get(key) ?? Promise.resolve()).then(
		async () => await work.call(context),
		async () => await work.call(context),
	);
	const tail = run.catch(() => undefined);
	hostQueues.set(key, tail);
	try {
		return await run;
	} finally {
		if (hostQueues.get(key) === tail) hostQueues.delete(key);
	}
}

// ---- create ------------------------------------------------------------------------------------

export async function createRegistration(this: IHookFunctions): Promise<boolean> {
	return await oneAtATime(this, takeNumbers);
}

async function takeNumbers(this: IHookFunctions): Promise<boolean> {
	const node = this.getNode();
	const settings = readSettings.call(this);
	if (settings.callbackOption === undefined) return true;
	const secret = settings.generatesSecret ? activationSecret(this) : settings.secret;
	const own = ownTrigger.call(this, settings, settings.callbackOption, secret);
	const records = await chosenRecords.call(this, settings);
	if (records.length === 0) {
		throw new NodeOperationError(
			node,
			'The account has no virtual numbers to register the trigger on',
			{
				description: 'Allocate a number first, or choose Selected Numbers.',
			},
		);
	}
	// Before any change: whose URL each number carries, what to register, what to refuse.
	const plan = planRegistration(records, own, settings.onExisting, legacyFor.call(this, own.base));
	if (plan.refused.length > 0) {
		const { message, description } = refusalText(plan.refused);
		throw new NodeOperationError(node, message, { description });
	}

	// Then take the numbers over; a failure puts back every number changed so far.
	const register = async (update: Update) =>
		await setCallback.call(this, update.record, { url: update.url, option: own.option });
	const { done, failures } = await forEachLimited(plan.updates, register, true);
	if (failures.length > 0) throw await rollBack.call(this, done, failures[0]);
	await verifyTaken.call(this, plan.updates, own);

	dropLegacy.call(this, own.base); // the numbers' URLs now carry what version 0.1 kept
	logMasked(
		this,
		'info',
		`${own.mode === 'test' ? 'listening for a test event' : 'registered'} on ${records.length} numbers ` +
			`(${plan.updates.length} updated): ${listNumbers(records.map((record) => text(record.virtualnum)))}`,
	);
	return true;
}

/**
 * Re-reads the numbers just taken before deciding success: another n8n may have written between
 * this activation's read and its write. A number that now carries someone else's URL is theirs:
 * it is left as it is, every other number taken is given back, and activation fails as when the
 * number was taken before it started.
 */
async function verifyTaken(
	this: IHookFunctions,
	updates: Update[],
	own: OwnTrigger,
): Promise<void> {
	if (updates.length === 0) return;
	let current: IDataObject[];
	try {
		current = await currentRecords.call(
			this,
			updates.map(({ number }) => number),
		);
	} catch (error) {
		const notRestored = await putBack.call(this, updates);
		throw new NodeOperationError(
			this.getNode(),
			`Could not check the numbers after registering the trigger: ${describe(error)}`,
			{ description: rollbackOutcome(updates[0].number, updates.length, false, notRestored) },
		);
	}
	const lost: Refusal[] = [];
	for (const update of updates) {
		const url = callbackOf(
			current.find((record) => text(record.virtualnum) === update.number) ?? {},
		).url;
		if (url !== update.url && ownerOf(url, own).kind !== 'mine')
			lost.push(lostTo(update.number, url, own));
	}
	if (lost.length === 0) return;
	const taken = updates.filter(({ number }) => !lost.some((refusal) => refusal.number === number));
	const notRestored = await putBack.call(this, taken);
	const { message, description } = refusalText(lost);
	const outcome =
		notRestored.length > 0 ? rollbackOutcome('', taken.length, false, notRestored) : '';
	throw new NodeOperationError(this.getNode(), message, {
		description: `${description} ${outcome}`.trim(),
	});
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

/** Puts each number back as it was when activation started; the numbers that could not be put back. */
async function putBack(this: IHookFunctions, updates: Update[]): Promise<string[]> {
	const restore = async (update: Update) =>
		await withRetries(
			this.getNode(),
			async () => await setCallback.call(this, update.record, update.start),
		);
	const { failures } = await forEachLimited(updates, restore, false);
	for (const { item, error } of failures)
		logMasked(this, 'error', `could not roll back ${item.number}: ${describe(error)}`);
	return failures.map(({ item }) => item.number);
}

/**
 * After a failed update: puts every number changed so far back as it was when activation
 * started (the failed one too when its update may have been applied), and says what happened.
 */
async function rollBack(
	this: IHookFunctions,
	done: Update[],
	failed: { item: Update; error: unknown },
): Promise<NodeOperationError> {
	const uncertain = mayHaveBeenApplied(failed.error);
	const changed = [...done.reverse(), ...(uncertain ? [failed.item] : [])];
	const notRestored = await putBack.call(this, changed);
	const { message, description } = failed.error as {
		message?: string;
		description?: string | null;
	};
	return new NodeOperationError(
		this.getNode(),
		`Could not register the trigger on ${failed.item.number}: ${message ?? String(failed.error)}`,
		{
			description: [
				description,
				rollbackOutcome(failed.item.number, done.length, uncertain, notRestored),
			]
				.filter(Boolean)
				.join(' '),
		},
	);
}

function rollbackOutcome(
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

// ---- delete ------------------------------------------------------------------------------------

/**
 * The numbers delete looks at: those the parameters cover, and version 0.1's. Parameters that
 * fail their checks (or SMS only) registered nothing: create runs on the same parameters (n8n's
 * clean-up and deactivation use the active version's) and fails before any request.
 */
function deleteScope(
	this: IHookFunctions,
	legacy: Map<string, Callback>,
): 'nothing' | 'all' | string[] {
	let settings: TriggerSettings | undefined;
	try {
		settings = readSettings.call(this);
		const secret = settings.generatesSecret ? (generatedSecret(this) ?? '') : settings.secret;
		checkTriggerUrl(this.getNode(), webhookUrlOf.call(this), secret, 'live');
	} catch {
		settings = undefined;
	}
	if (settings?.callbackOption === undefined)
		return legacy.size > 0 ? [...legacy.keys()] : 'nothing';
	if (settings.scope === 'all') return 'all';
	return [...new Set([...settings.selected, ...legacy.keys()])];
}

export async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	return await oneAtATime(this, restoreNumbers);
}

async function restoreNumbers(this: IHookFunctions): Promise<boolean> {
	const base = baseOf(webhookUrlOf.call(this));
	const legacy = legacyFor.call(this, base);
	const scope = deleteScope.call(this, legacy);
	if (scope === 'nothing') return true; // SMS only: nothing was registered
	const records = await currentRecords.call(this, scope === 'all' ? undefined : scope);
	if (Array.isArray(scope)) logLeftAlone(this, scope, records, base);
	const mine = records.filter((record) => baseOf(callbackOf(record).url) === base);
	const restore = async (record: IDataObject) => await restoreNumber.call(this, record, legacy);
	const { failures } = await forEachLimited(mine, restore, false);
	const failed = failures.map(({ item }) => text(item.virtualnum));
	dropLegacy.call(this, base, failed);
	if (failures.length === 0) return true;
	throw new NodeOperationError(
		this.getNode(),
		`Could not restore the previous callback URL of ${listNumbers(failed)}`,
		{
			description:
				`${failed[0]}: ${describe(failures[0].error)}. The other numbers were restored. The failed ones still ` +
				`point at this trigger, with their previous callback URL kept inside that URL: activating and ` +
				`deactivating the workflow again puts them back.`,
		},
	);
}

function logLeftAlone(
	context: IHookFunctions,
	numbers: string[],
	records: IDataObject[],
	base: string,
): void {
	for (const number of numbers) {
		const record = records.find((candidate) => text(candidate.virtualnum) === number);
		if (!record)
			logMasked(context, 'info', `${number} is no longer in the account (released?); skipped`);
		else if (callbackOf(record).url !== '' && baseOf(callbackOf(record).url) !== base) {
			logMasked(
				context,
				'info',
				`${number} does not point at this trigger; its callback URL was left as it is`,
			);
		}
	}
}

/** Puts back what the number had before this trigger (kept in its URL; version 0.1 kept it in the static data). */
async function restoreNumber(
	this: IHookFunctions,
	record: IDataObject,
	legacy: Map<string, Callback>,
): Promise<void> {
	const number = text(record.virtualnum);
	const previous = marksOf(callbackOf(record).url).previous ??
		legacy.get(number) ?? { url: '', option: DEFAULT_OPTION };
	try {
		await withRetries(this.getNode(), async () => await setCallback.call(this, record, previous));
	} catch (error) {
		if (!isNotInAccount(error)) throw asNodeError(this.getNode(), error);
		logMasked(this, 'info', `${number} is no longer in the account (released?); skipped`);
	}
}

// ---- the plan: whose each number is, what to register ------------------------------------------------

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
/** This trigger, in the mode it is registering or deregistering in. */
interface OwnTrigger {
	webhookUrl: string;
	base: string;
	webhookId: string;
	mode: UrlMode;
	secret: string;
	/** callback_url_option for the call events chosen. */
	option: number;
}

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

interface Update {
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

function planRegistration(
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
const NAMED_IN_ERRORS = 10;

function listNumbers(numbers: string[]): string {
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
		"If n8n's WEBHOOK_URL changed, set the number's callback URL back to its original (below) with the Virtual " +
		"Number node's Update operation, then activate again. If another n8n runs a copy of this workflow, " +
		'deactivate it there first.',
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
function refusalText(refused: Refusal[]): { message: string; description: string } {
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

// ---- requests to the service -------------------------------------------------------------------------

/**
 * The trigger's requests to the virtual number service: reading the numbers it covers, setting a
 * number's callback, and running updates a few at a time. Restores (a rollback, a deactivation)
 * are retried, because a number left on an inactive trigger's URL loses the user's calls;
 * registrations are not (a failed activation rolls back and says why).
 */
/** Updates in flight at once: fast enough for thousands of numbers, gentle on the service. */
const CONCURRENCY = 4;
/** Above this many numbers, they are read page by page instead of one request each. */
const PAGE_INSTEAD_OF_SINGLE = 20;
/** Attempts of a restore (and of the reads it needs), and the pause before the second one. */
const RESTORE_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 250;

function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value).trim();
}

function callbackOf(record: IDataObject): Callback {
	const option = Number(record.callback_url_option);
	return {
		url: text(record.callback_url),
		option: Number.isInteger(option) && option >= 1 && option <= 3 ? option : DEFAULT_OPTION,
	};
}

/** The number is not in the account: update_virtualnum's code, or getVirtualnum's own error (it found no record). */
function isNotInAccount(error: unknown): boolean {
	if (error instanceof NodeApiError) return serviceCodeOf(error) === NOT_IN_ACCOUNT_CODE;
	return error instanceof NodeOperationError && /is not in this account/.test(error.message);
}

/** Network failures in which the request never reached the service. */
const NOT_SENT = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'];

/**
 * Whether an update that failed may still have been applied: its answer was lost or unreadable
 * (timeout, reset connection, HTTP 5xx, an HTML, empty, cut-off or XML answer, code 999). A status
 * code the service answered, a 401 or a connection refused mean it was not.
 */
function mayHaveBeenApplied(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	// 200: the service reported success in an answer that could not be read (XML).
	const code = serviceCodeOf(error);
	if (code !== undefined) return code === 200 || code === 999;
	if (NOT_SENT.includes(networkCodeOfFailure(error) ?? '')) return false;
	const http = Number(error.httpCode);
	return !(Number.isFinite(http) && http >= 400 && http < 500);
}

/** Runs `work` again after a failure (not when the number left the account), a few times. */
async function withRetries<T>(node: INode, work: () => Promise<T>): Promise<T> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await work();
		} catch (error) {
			if (attempt >= RESTORE_ATTEMPTS || isNotInAccount(error)) throw asNodeError(node, error);
			await sleep(RETRY_PAUSE_MS * attempt);
		}
	}
}

function uniqueNumbers(records: IDataObject[]): IDataObject[] {
	const seen = new Set<string>();
	return records.filter((record) => {
		const number = text(record.virtualnum);
		if (number === '' || seen.has(number)) return false;
		seen.add(number);
		return true;
	});
}

/** Every number of the account, active and suspended. */
async function allRecords(this: IHookFunctions): Promise<IDataObject[]> {
	const active = await getAllVirtualnums.call(this, { status: 'active' });
	const suspended = await getAllVirtualnums.call(this, { status: 'suspended' });
	return uniqueNumbers([...active, ...suspended]);
}

/** The records of the numbers the trigger covers; fails naming a selected number that is not in the account. */
async function chosenRecords(
	this: IHookFunctions,
	settings: TriggerSettings,
): Promise<IDataObject[]> {
	if (settings.scope === 'all') return await allRecords.call(this);
	const records: IDataObject[] = [];
	for (const number of settings.selected) records.push(await getVirtualnum.call(this, number));
	return records;
}

/**
 * The current records of the numbers (all of the account when `numbers` is undefined), each read
 * with retries; a number missing from the result is no longer in the account.
 */
async function currentRecords(this: IHookFunctions, numbers?: string[]): Promise<IDataObject[]> {
	if (numbers === undefined || numbers.length > PAGE_INSTEAD_OF_SINGLE) {
		const all = await withRetries(this.getNode(), async () => await allRecords.call(this));
		return numbers === undefined
			? all
			: all.filter((record) => numbers.includes(text(record.virtualnum)));
	}
	const found: IDataObject[] = [];
	for (const number of numbers) {
		try {
			found.push(
				await withRetries(this.getNode(), async () => await getVirtualnum.call(this, number)),
			);
		} catch (error) {
			if (!isNotInAccount(error)) throw asNodeError(this.getNode(), error);
		}
	}
	return found;
}

/**
 * Sets a number's callback URL and option, sending every other settable field as read. Empty
 * fields are left out (an empty dial_timeout_in_sec means the account's default, and the service
 * refuses an empty one), but the callback URL is always sent, also empty when restoring a number
 * that had none.
 */
async function setCallback(
	this: IHookFunctions,
	record: IDataObject,
	callback: Callback,
): Promise<void> {
	// Every setting as read: a service that replaces the whole record on update keeps them all.
	const params: IDataObject = { virtualnum: text(record.virtualnum), ...settingsAsRead(record) };
	params.callback_url = callback.url;
	params.callback_url_option = String(callback.option);
	await virtualnumRequest.call(this, {
		service: 'update_virtualnum',
		method: 'POST',
		sideEffect: true,
		params,
		sendEmpty: ['callback_url'],
	});
}

/**
 * Runs `work` over the items in the shared pool, CONCURRENCY at a time. With `stopOnFailure`, no new
 * item starts after the first failure (activation rolls back instead); otherwise every item runs and
 * failures are listed.
 */
async function forEachLimited<T>(
	items: T[],
	work: (item: T) => Promise<void>,
	stopOnFailure: boolean,
): Promise<{ done: T[]; failures: Array<{ item: T; error: unknown }> }> {
	const done: T[] = [];
	const failures: Array<{ item: T; error: unknown }> = [];
	await inPool(items, CONCURRENCY, async (item) => {
		try {
			await work(item);
			done.push(item);
			return true;
		} catch (error) {
			failures.push({ item, error });
			return !stopOnFailure;
		}
	});
	return { done, failures };
}

function describe(error: unknown): string {
	const { message, description } = error as { message?: string; description?: string | null };
	return [message ?? String(error), description].filter(Boolean).join(' — ');
}
