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
 * travels inside the URL the trigger registers (its format: nodes/shared/triggerUrl.ts), and
 * delete finds the numbers from the parameters and the service. Beside the generated secret
 * (../secret.ts) and what callbacks keep (../callback/), the static data holds only version 0.1's
 * records, read below to restore what that version registered.
 *
 * Each method masks every secret in what it throws (../secret.ts) and calls the service through
 * numbers.ts; what to do with each number is decided first, without any request (plan.ts).
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ACCOUNT_NUMBERS_KEY } from '../../shared/callRouting';
import { asNodeError, messageOf } from '../../shared/errors';
import { numbersTurn } from '../../shared/numberLock';
import { digitsOf, phoneIdentity } from '../../shared/phones';
import {
	DEFAULT_OPTION,
	baseOf,
	callbackOf,
	marksOf,
	text,
	type Callback,
} from '../../shared/triggerUrl';
import { activationSecret, checkTriggerUrl, logMasked, maskedError, urlSecret } from '../secret';
import { readSettings } from '../settings';
import type { OwnTrigger, TriggerSettings } from '../types';
import {
	isNotInAccount,
	mayHaveBeenApplied,
	readRecords,
	setCallbacks,
	type CallbackChange,
} from './numbers';
import {
	isRegistered,
	listNumbers,
	lostSince,
	planRegistration,
	refusalText,
	rollbackOutcome,
	type Update,
} from './plan';

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
 * This trigger as it registers: the secret on its URL is the user's Secret, else (version 1.1) the
 * one generated at activation (../secret.ts).
 */
function ownTrigger(this: IHookFunctions, option: number, secret: string): OwnTrigger {
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

/** Any error of a lifecycle method, with every secret masked (the service may quote URLs). */
function masked(context: IHookFunctions, error: unknown): unknown {
	return maskedError(context, asNodeError(context.getNode(), error));
}

export async function checkRegistration(this: IHookFunctions): Promise<boolean> {
	try {
		const settings = readSettings.call(this, true);
		if (settings.callbackOption === undefined) return true; // SMS only: nothing is registered on the service
		const secret = urlSecret(this, settings);
		// Not activated since the secret is generated: create generates it and puts it on every URL.
		if (secret === undefined) return false;
		const own = ownTrigger.call(this, settings.callbackOption, secret);
		let records: IDataObject[];
		try {
			records = await readRecords.call(this, chosen(settings), false);
		} catch (error) {
			// A selected number that left the account: registering again reports it properly.
			if (!isNotInAccount(error)) throw asNodeError(this.getNode(), error);
			logMasked(this, 'info', `registering again: ${messageOf(error, { description: true })}`);
			return false;
		}
		return records.length > 0 && records.every((record) => isRegistered(record, own));
	} catch (error) {
		throw masked(this, error);
	}
}

/** The numbers the parameters cover. */
function chosen(settings: TriggerSettings): string[] | 'all' {
	return settings.scope === 'all' ? 'all' : settings.selected;
}

/*
 * Creates and deletes of this process wait for each other, and for Virtual Number → Update and
 * Restore Callback URLs, holding the whole account (nodes/shared/numberLock.ts): the service has
 * no compare-and-set, and n8n runs activations of several workflows at once (2.x publishes up to 5
 * in parallel). Across processes (two n8n installations on one account), create re-reads what it
 * wrote before deciding (giveBackIfLost).
 */

/** Activation: reads the numbers, decides, then takes them over; a failure puts back every number changed. */
export async function createRegistration(this: IHookFunctions): Promise<boolean> {
	let endTurn: (() => void) | undefined;
	try {
		endTurn = await numbersTurn(this, 'all');
		const settings = readSettings.call(this, true);
		if (settings.callbackOption === undefined) return true;
		const secret = activationSecret(this, settings);
		const own = ownTrigger.call(this, settings.callbackOption, secret);
		const records = await readRecords.call(this, chosen(settings), false);
		if (records.length === 0) {
			throw new NodeOperationError(
				this.getNode(),
				'The account has no virtual numbers to register the trigger on',
				{ description: 'Allocate a number first, or choose Selected Numbers.' },
			);
		}
		// Before any change: whose URL each number carries, what to register, what to refuse.
		const plan = planRegistration(
			records,
			own,
			settings.onExisting,
			legacyFor.call(this, own.base),
		);
		if (plan.refused.length > 0) {
			const { message, description } = refusalText(plan.refused);
			throw new NodeOperationError(this.getNode(), message, { description });
		}
		const toRegister = (update: Update): Update & CallbackChange => ({
			...update,
			callback: { url: update.url, option: own.option },
		});
		const taken = await setCallbacks(this, plan.updates.map(toRegister), false);
		if (taken.failures.length > 0) throw await rollBack.call(this, taken.done, taken.failures[0]);
		// Another n8n may have written between this activation's read and its write: read again.
		let current: IDataObject[] = [];
		try {
			const written = plan.updates.map(({ number }) => number);
			if (written.length > 0) current = await readRecords.call(this, written, true);
		} catch (error) {
			throw await uncheckedFailure.call(this, plan.updates, error);
		}
		await giveBackIfLost.call(this, plan.updates, current, own);
		dropLegacy.call(this, own.base); // the numbers' URLs now carry what version 0.1 kept
		await keepAccountNumbers.call(this, settings, records);
		const numbers = records.map((record) => text(record.virtualnum));
		logMasked(
			this,
			'info',
			`${own.mode === 'test' ? 'listening for a test event' : 'registered'} on ${records.length} numbers ` +
				`(${plan.updates.length} updated): ${listNumbers(numbers)}`,
		);
		return true;
	} catch (error) {
		throw masked(this, error);
	} finally {
		endTurn?.();
	}
}

/**
 * Route Call never answers a number of the account (shared/callRouting.ts: no loops), from version
 * 1.1: the numbers read here are kept as phone identities in the workflow's global static data,
 * where the callbacks and the Route Incoming Call node read them. With Selected Numbers the
 * account's list is read for it; when that read fails, the selected numbers are kept and a warning
 * says so. A number added to the account later is known from the next activation.
 */
async function keepAccountNumbers(
	this: IHookFunctions,
	settings: TriggerSettings,
	records: IDataObject[],
): Promise<void> {
	if (!settings.route?.refusesAccount) return;
	let account = records;
	if (settings.scope === 'selected') {
		try {
			account = await readRecords.call(this, 'all', false);
		} catch (error) {
			logMasked(
				this,
				'warn',
				`the account's numbers could not be read (${messageOf(error, { description: true })}): Route Call ` +
					'refuses only the selected numbers and the one dialled as destinations until the next activation',
			);
		}
	}
	const numbers = account.map((record) => phoneIdentity(digitsOf(record.virtualnum)));
	const global = this.getWorkflowStaticData('global');
	const kept = (global[ACCOUNT_NUMBERS_KEY] ?? {}) as IDataObject;
	// A new object, so n8n sees the change and saves it.
	global[ACCOUNT_NUMBERS_KEY] = { ...kept, [this.getNode().name]: [...new Set(numbers)] };
}

/** The change that puts a number back as it was when activation started. */
function toStart(update: Update): Update & CallbackChange {
	return { ...update, callback: update.start };
}

/** Logs each number that could not be put back as it was when activation started; their numbers. */
function notRestored(context: IHookFunctions, failures: Array<{ change: Update; error: unknown }>) {
	for (const { change, error } of failures) {
		const why = messageOf(error, { description: true });
		logMasked(context, 'error', `could not roll back ${change.number}: ${why}`);
	}
	return failures.map(({ change }) => change.number);
}

/**
 * After a failed update: puts every number changed so far back as it was when activation
 * started (the failed one too when its update may have been applied), and says what happened.
 */
async function rollBack(
	this: IHookFunctions,
	done: Update[],
	failed: { change: Update; error: unknown },
): Promise<NodeOperationError> {
	const uncertain = mayHaveBeenApplied(failed.error);
	const changed = [...done.reverse(), ...(uncertain ? [failed.change] : [])];
	const back = await setCallbacks(this, changed.map(toStart), true);
	const { message, description } = failed.error as {
		message?: string;
		description?: string | null;
	};
	return new NodeOperationError(
		this.getNode(),
		`Could not register the trigger on ${failed.change.number}: ${message ?? String(failed.error)}`,
		{
			description: [
				description,
				rollbackOutcome(
					failed.change.number,
					done.length,
					uncertain,
					notRestored(this, back.failures),
				),
			]
				.filter(Boolean)
				.join(' '),
		},
	);
}

/** The numbers could not be read again after they were written: every one is given back. */
async function uncheckedFailure(
	this: IHookFunctions,
	updates: Update[],
	error: unknown,
): Promise<NodeOperationError> {
	const back = await setCallbacks(this, updates.map(toStart), true);
	return new NodeOperationError(
		this.getNode(),
		`Could not check the numbers after registering the trigger: ${messageOf(error, { description: true })}`,
		{
			description: rollbackOutcome(
				updates[0].number,
				updates.length,
				false,
				notRestored(this, back.failures),
			),
		},
	);
}

/**
 * Decides on the numbers as read again after writing them. A number that now carries someone
 * else's URL is theirs: it is left as it is, every other number taken is given back, and
 * activation fails as when the number was taken before it started.
 */
async function giveBackIfLost(
	this: IHookFunctions,
	updates: Update[],
	current: IDataObject[],
	own: OwnTrigger,
): Promise<void> {
	const lost = lostSince(updates, current, own);
	if (lost.length === 0) return;
	const taken = updates.filter(({ number }) => !lost.some((refusal) => refusal.number === number));
	const back = await setCallbacks(this, taken.map(toStart), true);
	const failed = notRestored(this, back.failures);
	const { message, description } = refusalText(lost);
	const outcome = failed.length > 0 ? rollbackOutcome('', taken.length, false, failed) : '';
	throw new NodeOperationError(this.getNode(), message, {
		description: `${description} ${outcome}`.trim(),
	});
}

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
		const secret = urlSecret(this, settings) ?? '';
		checkTriggerUrl(this.getNode(), webhookUrlOf.call(this), secret, 'live');
	} catch {
		settings = undefined;
	}
	if (settings?.callbackOption === undefined)
		return legacy.size > 0 ? [...legacy.keys()] : 'nothing';
	if (settings.scope === 'all') return 'all';
	return [...new Set([...settings.selected, ...legacy.keys()])];
}

/** Deactivation: puts back on every number that points at this trigger what it had before. */
export async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	let endTurn: (() => void) | undefined;
	try {
		endTurn = await numbersTurn(this, 'all');
		const base = baseOf(webhookUrlOf.call(this));
		const legacy = legacyFor.call(this, base);
		const scope = deleteScope.call(this, legacy);
		if (scope === 'nothing') return true; // SMS only: nothing was registered
		const records = await readRecords.call(this, scope, true);
		if (Array.isArray(scope)) logLeftAlone(this, scope, records, base);
		const mine = records.filter((record) => baseOf(callbackOf(record).url) === base);
		const restores = mine.map((record) => restoreOf(record, legacy));
		const { failures } = await setCallbacks(this, restores, true);
		const failed = failures.filter(
			({ change, error }) => !releasedSince(this, change.number, error),
		);
		const numbers = failed.map(({ change }) => change.number);
		dropLegacy.call(this, base, numbers);
		if (failed.length === 0) return true;
		throw new NodeOperationError(
			this.getNode(),
			`Could not restore the previous callback URL of ${listNumbers(numbers)}`,
			{
				description:
					`${numbers[0]}: ${messageOf(failed[0].error, { description: true })}. The other numbers were ` +
					`restored. The failed ones still point at this trigger, with their previous callback URL kept ` +
					`inside that URL: activating and deactivating the workflow again puts them back.`,
			},
		);
	} catch (error) {
		throw masked(this, error);
	} finally {
		endTurn?.();
	}
}

/** What the number had before this trigger (kept in its URL; version 0.1 kept it in the static data). */
function restoreOf(record: IDataObject, legacy: Map<string, Callback>): CallbackChange {
	const number = text(record.virtualnum);
	const previous = marksOf(callbackOf(record).url).previous ??
		legacy.get(number) ?? { url: '', option: DEFAULT_OPTION };
	return { record, number, callback: previous };
}

/** A number released since activation has nothing to restore: a log line, not a failure. */
function releasedSince(context: IHookFunctions, number: string, error: unknown): boolean {
	if (!isNotInAccount(error)) return false;
	logMasked(context, 'info', `${number} is no longer in the account (released?); skipped`);
	return true;
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

// ---- Version 0.1's records ------------------------------------------------------------------

/*
 * Version 0.1's records: that version kept each number's previous callback in the workflow's static
 * data (`registrations`, by the trigger's URL) instead of inside the URL it registered. They are
 * read to restore the numbers it registered, and forgotten once the numbers' URLs carry them.
 */

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
