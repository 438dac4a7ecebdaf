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
 * dedupe (dedupe.ts).
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../shared/errors';
import { DEFAULT_OPTION, baseOf, marksOf, type Callback } from './callbackUrl';
import { listNumbers, planRegistration, refusalText, type OwnTrigger, type Update } from './plan';
import { logMasked } from './secrets';
import {
	callbackOf,
	chosenRecords,
	currentRecords,
	describe,
	forEachLimited,
	isNotInAccount,
	mayHaveBeenApplied,
	setCallback,
	text,
	withRetries,
} from './service';
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

function ownTrigger(this: IHookFunctions, settings: TriggerSettings, option: number): OwnTrigger {
	const webhookUrl = webhookUrlOf.call(this);
	const mode = this.getMode() === 'manual' ? 'test' : 'live';
	checkTriggerUrl(this.getNode(), webhookUrl, settings.secret, mode);
	return {
		webhookUrl,
		base: baseOf(webhookUrl),
		webhookId: String(this.getNode().webhookId ?? ''),
		mode,
		secret: settings.secret,
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
	const own = ownTrigger.call(this, settings, settings.callbackOption);
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

// ---- create ------------------------------------------------------------------------------------

export async function createRegistration(this: IHookFunctions): Promise<boolean> {
	const node = this.getNode();
	const settings = readSettings.call(this);
	if (settings.callbackOption === undefined) return true;
	const own = ownTrigger.call(this, settings, settings.callbackOption);
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
	// Phase 1, before any change: whose URL each number carries, what to register, what to refuse.
	const plan = planRegistration(records, own, settings.onExisting, legacyFor.call(this, own.base));
	if (plan.refused.length > 0) {
		const { message, description } = refusalText(plan.refused);
		throw new NodeOperationError(node, message, { description });
	}

	// Phase 2: take the numbers over.
	const register = async (update: Update) =>
		await setCallback.call(this, update.record, { url: update.url, option: own.option });
	const { done, failures } = await forEachLimited(plan.updates, register, true);
	if (failures.length > 0) throw await rollBack.call(this, done, failures[0]);

	dropLegacy.call(this, own.base); // the numbers' URLs now carry what version 0.1 kept
	logMasked(
		this,
		'info',
		`${own.mode === 'test' ? 'listening for a test event' : 'registered'} on ${records.length} numbers (${plan.updates.length} updated): ${listNumbers(records.map((record) => text(record.virtualnum)))}`,
	);
	return true;
}

/**
 * Phase 3, after a failed update: puts every number changed so far back as it was when activation
 * started (the failed one too when its update may have been applied), and says what happened.
 */
async function rollBack(
	this: IHookFunctions,
	done: Update[],
	failed: { item: Update; error: unknown },
): Promise<NodeOperationError> {
	const uncertain = mayHaveBeenApplied(failed.error);
	const changed = [...done.reverse(), ...(uncertain ? [failed.item] : [])];
	const putBack = async (update: Update) =>
		await withRetries(
			this.getNode(),
			async () => await setCallback.call(this, update.record, update.start),
		);
	const { failures } = await forEachLimited(changed, putBack, false);
	for (const { item, error } of failures)
		logMasked(this, 'error', `could not roll back ${item.number}: ${describe(error)}`);
	const notRestored = failures.map(({ item }) => item.number);
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
		return `${maybe}Could not put back ${listNumbers(notRestored)}: each still points at this trigger, with its previous callback URL kept inside that URL. n8n's clean-up after this failed activation tries again; if the service still fails, activate and deactivate the workflow once it answers, which puts them back.`;
	}
	if (changed === 0 && !uncertain) return 'No number had been changed.';
	if (changed === 0) return maybe.trim();
	return `${maybe}The ${changed} number${changed === 1 ? '' : 's'} already changed ${changed === 1 ? 'was' : 'were'} put back as ${changed === 1 ? 'it was' : 'they were'}.`;
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
		checkTriggerUrl(this.getNode(), webhookUrlOf.call(this), settings.secret, 'live');
	} catch {
		settings = undefined;
	}
	if (settings?.callbackOption === undefined)
		return legacy.size > 0 ? [...legacy.keys()] : 'nothing';
	if (settings.scope === 'all') return 'all';
	return [...new Set([...settings.selected, ...legacy.keys()])];
}

export async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
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
			description: `${failed[0]}: ${describe(failures[0].error)}. The other numbers were restored. The failed ones still point at this trigger, with their previous callback URL kept inside that URL: activating and deactivating the workflow again puts them back.`,
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
