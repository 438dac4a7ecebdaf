/**
 * The trigger's webhook lifecycle (checkExists, create, delete), after n8n's Stripe trigger:
 * everything the trigger must remember between activation and deactivation (the URL it put on
 * the numbers, and each number's previous callback URL and option) lives in the node's workflow
 * static data, never in module variables, because in queue mode the main process registers and
 * other processes receive, and only the saved static data travels between them.
 *
 * Registrations are keyed by the webhook URL (without the secret), so a test-mode registration
 * (webhook-test/…) and the production one each keep their own records, even when the editor's
 * copy of the static data holds both.
 */
import type { IDataObject, IHookFunctions, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { asNodeError } from '../shared/errors';
import { virtualnumRequest } from '../shared/transport/virtualnumApi';
import { getAllVirtualnums, getVirtualnum, updateVirtualnum } from '../shared/virtualnums';
import { baseOf, readSettings, registeredUrlFor, type TriggerSettings } from './settings';

/** What the trigger remembers of one number: its callback before the trigger took it over. */
export interface SavedNumber {
	previousUrl: string;
	previousOption: number;
}

export interface Registration {
	/** The URL put on the numbers (with the secret, when one is set). */
	url: string;
	option: number;
	numbers: Record<string, SavedNumber>;
	registeredAt: string;
}

interface TriggerStaticData {
	registrations?: Record<string, Registration>;
}

/** The service's code for "number not in the account" on update_virtualnum. */
const NOT_IN_ACCOUNT = 4019;
/** The service's default callback_url_option (spec: create_virtualnum). */
const DEFAULT_OPTION = 2;
/** Updates in flight at once: fast enough for thousands of numbers, gentle on the service. */
const CONCURRENCY = 4;
/** Above this many numbers, deactivation reads them page by page instead of one request each. */
const PAGE_INSTEAD_OF_SINGLE = 20;
/** Numbers named in one error message; the rest are counted. */
const NAMED_IN_ERRORS = 10;

function staticData(this: IHookFunctions): TriggerStaticData {
	return this.getWorkflowStaticData('node') as unknown as TriggerStaticData;
}

function readRegistrations(this: IHookFunctions): Record<string, Registration> {
	const saved = staticData.call(this).registrations;
	return saved && typeof saved === 'object' ? (JSON.parse(JSON.stringify(saved)) as Record<string, Registration>) : {};
}

/** Saves one registration (or removes it); the whole object is replaced so n8n sees the change and saves it. */
function writeRegistration(this: IHookFunctions, key: string, registration: Registration | undefined): void {
	const all = readRegistrations.call(this);
	if (registration) all[key] = registration;
	else delete all[key];
	const data = staticData.call(this);
	if (Object.keys(all).length === 0) delete data.registrations;
	else data.registrations = all;
}

function webhookUrlOf(this: IHookFunctions): string {
	const url = this.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(this.getNode(), 'n8n did not give this trigger a webhook URL', {
			description: 'Save the workflow and try again.',
		});
	}
	return url;
}

function text(value: unknown): string {
	return value === undefined || value === null ? '' : String(value).trim();
}

function optionOf(record: IDataObject): number {
	const option = Number(record.callback_url_option);
	return Number.isInteger(option) && option >= 1 && option <= 3 ? option : DEFAULT_OPTION;
}

function listNumbers(numbers: string[]): string {
	const named = numbers.slice(0, NAMED_IN_ERRORS).join(', ');
	return numbers.length > NAMED_IN_ERRORS ? `${named} and ${numbers.length - NAMED_IN_ERRORS} more` : named;
}

/** The records of the numbers the trigger covers: every number (active and suspended) or the selected ones. */
async function chosenRecords(this: IHookFunctions, settings: TriggerSettings): Promise<IDataObject[]> {
	if (settings.scope === 'all') {
		const active = await getAllVirtualnums.call(this, { status: 'active' });
		const suspended = await getAllVirtualnums.call(this, { status: 'suspended' });
		const seen = new Set<string>();
		return [...active, ...suspended].filter((record) => {
			const number = text(record.virtualnum);
			if (number === '' || seen.has(number)) return false;
			seen.add(number);
			return true;
		});
	}
	const records: IDataObject[] = [];
	for (const number of settings.selected) records.push(await getVirtualnum.call(this, number));
	return records;
}

/**
 * Runs `work` over the items, a few at a time. With `stopOnFailure`, no new item starts after the
 * first failure (activation rolls back instead); otherwise every item runs and failures are listed.
 */
async function forEachLimited<T>(
	items: T[],
	work: (item: T) => Promise<void>,
	stopOnFailure: boolean,
): Promise<{ done: T[]; failures: Array<{ item: T; error: unknown }> }> {
	const done: T[] = [];
	const failures: Array<{ item: T; error: unknown }> = [];
	let next = 0;
	const worker = async () => {
		while (next < items.length && !(stopOnFailure && failures.length > 0)) {
			const item = items[next++];
			try {
				await work(item);
				done.push(item);
			} catch (error) {
				failures.push({ item, error });
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
	return { done, failures };
}

/**
 * The current records of the numbers, by number; a number missing from the result is no longer in
 * the account. Many numbers are read page by page (a few requests), few numbers one by one.
 */
async function currentRecords(this: IHookFunctions, numbers: string[]): Promise<Map<string, IDataObject>> {
	const found = new Map<string, IDataObject>();
	if (numbers.length > PAGE_INSTEAD_OF_SINGLE) {
		const wanted = new Set(numbers);
		for (const status of ['active', 'suspended'] as const) {
			for (const record of await getAllVirtualnums.call(this, { status })) {
				const number = text(record.virtualnum);
				if (wanted.has(number) && !found.has(number)) found.set(number, record);
			}
		}
		return found;
	}
	for (const number of numbers) {
		try {
			found.set(number, await getVirtualnum.call(this, number));
		} catch (error) {
			if (!isNotInAccount(error)) throw asNodeError(this.getNode(), error);
		}
	}
	return found;
}

/**
 * Sets a number's callback URL and option. update_virtualnum is sent through the shared helper,
 * which re-sends description and call_destination_phone; an empty URL (restoring a number that
 * had none) is sent explicitly, because the transport leaves empty parameters out and the
 * service only changes the fields it receives.
 */
async function setCallback(
	this: IHookFunctions,
	virtualnum: string,
	url: string,
	option: number,
	current: IDataObject,
): Promise<void> {
	if (url !== '') {
		await updateVirtualnum.call(this, virtualnum, { callback_url: url, callback_url_option: option }, { current });
		return;
	}
	const params: Record<string, string> = {
		virtualnum,
		description: text(current.description),
		call_destination_phone: text(current.call_destination_phone),
		callback_url: '',
		callback_url_option: String(option),
	};
	await virtualnumRequest.call(this, {
		service: 'update_virtualnum',
		method: 'POST',
		sideEffect: true,
		requestOptions: {
			body: new URLSearchParams(params).toString(),
			headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
		},
	});
}

function codeOf(error: unknown): number | undefined {
	const data = (error as { context?: { data?: JsonObject } }).context?.data;
	const code = Number(data?.code);
	return Number.isFinite(code) ? code : undefined;
}

/**
 * Whether an update that failed may still have been applied: its answer was lost or unreadable
 * (timeout, reset connection, HTTP 5xx, an HTML, empty, cut-off or XML answer, code 999). A status
 * code the service answered, a 401 or a connection refused mean it was not.
 */
function mayHaveBeenApplied(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	const code = (error.context?.data as JsonObject | undefined)?.code;
	if (typeof code === 'number') return code === 200 || code === 999;
	if (typeof code === 'string' && ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(code)) return false;
	const http = Number(error.httpCode);
	return !(Number.isFinite(http) && http >= 400 && http < 500);
}

/** getVirtualnum fails with a NodeOperationError (not a NodeApiError) only when the number is not in the account. */
function isNotInAccount(error: unknown): boolean {
	if (error instanceof NodeApiError) return codeOf(error) === NOT_IN_ACCOUNT;
	return error instanceof NodeOperationError;
}

function describe(error: unknown): string {
	const { message, description } = error as { message?: string; description?: string | null };
	return [message ?? String(error), description].filter(Boolean).join(' — ');
}

// ---- checkExists -------------------------------------------------------------------------------

export async function checkRegistration(this: IHookFunctions): Promise<boolean> {
	const settings = readSettings.call(this);
	if (settings.callbackOption === undefined) return true; // SMS only: nothing is registered on the service
	const webhookUrl = webhookUrlOf.call(this);
	const url = registeredUrlFor(this.getNode(), webhookUrl, settings.secret);
	const saved = readRegistrations.call(this)[baseOf(webhookUrl)];
	if (!saved || saved.url !== url || saved.option !== settings.callbackOption) return false;
	let records: IDataObject[];
	try {
		records = await chosenRecords.call(this, settings);
	} catch (error) {
		// A selected number that left the account: re-registering reports it properly.
		if (isNotInAccount(error)) {
			this.logger.info(`Virtual Number Trigger: re-registering, ${hideSecret(describe(error), secretForms.call(this))}`);
			return false;
		}
		throw asNodeError(this.getNode(), error);
	}
	if (records.length === 0) return false;
	return records.every(
		(record) =>
			text(record.callback_url) === url &&
			optionOf(record) === settings.callbackOption &&
			saved.numbers[text(record.virtualnum)] !== undefined,
	);
}

// ---- create ------------------------------------------------------------------------------------

export async function createRegistration(this: IHookFunctions): Promise<boolean> {
	const node = this.getNode();
	const settings = readSettings.call(this);
	if (settings.callbackOption === undefined) return true;
	const option = settings.callbackOption;
	const webhookUrl = webhookUrlOf.call(this);
	const key = baseOf(webhookUrl);
	const url = registeredUrlFor(node, webhookUrl, settings.secret);

	const records = await chosenRecords.call(this, settings);
	if (records.length === 0) {
		throw new NodeOperationError(node, 'The account has no virtual numbers to register the trigger on', {
			description: 'Allocate a number first, or choose Selected Numbers.',
		});
	}

	// Phase 1, before any change: what each number had, and which point somewhere else.
	const earlier = readRegistrations.call(this)[key];
	const saved: Record<string, SavedNumber> = {};
	const toUpdate: IDataObject[] = [];
	/** Each number's callback when this activation started, to roll back to. */
	const startOf = new Map<string, { url: string; option: number; mine: boolean }>();
	const foreign: Array<{ number: string; url: string }> = [];
	for (const record of records) {
		const number = text(record.virtualnum);
		const currentUrl = text(record.callback_url);
		const currentOption = optionOf(record);
		const mine = currentUrl !== '' && baseOf(currentUrl) === key;
		startOf.set(number, { url: currentUrl, option: currentOption, mine });
		if (mine) {
			// Already this trigger's (an earlier activation): keep what it had before that one; when
			// that record was lost, deactivation clears the URL and sets the service's default option.
			saved[number] = earlier?.numbers[number] ?? { previousUrl: '', previousOption: DEFAULT_OPTION };
			if (currentUrl !== url || currentOption !== option) toUpdate.push(record);
			continue;
		}
		if (currentUrl !== '' && settings.onExisting === 'fail') {
			foreign.push({ number, url: currentUrl });
			continue;
		}
		saved[number] = { previousUrl: currentUrl, previousOption: currentOption };
		toUpdate.push(record);
	}
	if (foreign.length > 0) {
		const shown = foreign.slice(0, NAMED_IN_ERRORS).map((entry) => `${entry.number} (${entry.url})`);
		throw new NodeOperationError(
			node,
			`${foreign.length === 1 ? 'The number' : `${foreign.length} numbers`} already ${foreign.length === 1 ? 'has' : 'have'} another callback URL: ${shown.join(', ')}${foreign.length > NAMED_IN_ERRORS ? ` and ${foreign.length - NAMED_IN_ERRORS} more` : ''}`,
			{
				description:
					'Nothing was changed. Remove those numbers from the trigger, clear their callback URL, or set "If a Number Already Has a Callback URL" to Replace It and Restore It on Deactivation.',
			},
		);
	}

	// Remembered before any change, so that whatever happens next, deactivation knows what to restore.
	const registration: Registration = { url, option, numbers: { ...(earlier?.numbers ?? {}), ...saved }, registeredAt: new Date().toISOString() };
	writeRegistration.call(this, key, registration);

	// Phase 2: take the numbers over.
	const { done, failures } = await forEachLimited(
		toUpdate,
		async (record) => await setCallback.call(this, text(record.virtualnum), url, option, record),
		true,
	);
	const failed = failures[0];
	if (!failed) {
		this.logger.info(`Virtual Number Trigger: registered on ${records.length} numbers (${toUpdate.length} updated)`);
		return true;
	}

	// Phase 3: a number failed; put every number changed so far back as it was when activation started,
	// the failed one too when its update may have been applied (a lost or unreadable answer).
	const failedNumber = text(failed.item.virtualnum);
	const uncertain = mayHaveBeenApplied(failed.error);
	const notRestored: string[] = [];
	for (const record of [...done.reverse(), ...(uncertain ? [failed.item] : [])]) {
		const number = text(record.virtualnum);
		const start = startOf.get(number)!;
		try {
			await setCallback.call(this, number, start.url, start.option, record);
		} catch (error) {
			notRestored.push(number);
			this.logger.error(`Virtual Number Trigger: could not roll back ${number}: ${hideSecret(describe(error), secretForms.call(this))}`);
		}
	}
	// Only numbers that still point to this trigger keep their record, for deactivation to restore.
	for (const record of toUpdate) {
		const number = text(record.virtualnum);
		if (!startOf.get(number)!.mine && !notRestored.includes(number)) delete registration.numbers[number];
	}
	writeRegistration.call(this, key, Object.keys(registration.numbers).length > 0 ? registration : undefined);
	const { message, description } = failed.error as { message?: string; description?: string | null };
	throw new NodeOperationError(node, `Could not register the trigger on ${failedNumber}: ${message ?? String(failed.error)}`, {
		description: [
			description,
			uncertain ? `The service may have changed ${failedNumber} before the failure, so it was put back as well.` : '',
			done.length === 0 && !uncertain
				? 'No number had been changed.'
				: notRestored.length === 0
					? done.length === 0
						? ''
						: `The ${done.length} number${done.length === 1 ? '' : 's'} already changed ${done.length === 1 ? 'was' : 'were'} put back as they were.`
					: `Could not put back ${listNumbers(notRestored)}; deactivating the workflow will try again.`,
		]
			.filter(Boolean)
			.join(' '),
	});
}

// ---- delete ------------------------------------------------------------------------------------

export async function deleteRegistration(this: IHookFunctions): Promise<boolean> {
	const key = baseOf(webhookUrlOf.call(this));
	const registration = readRegistrations.call(this)[key];
	// Nothing registered (SMS only, or already undone: n8n calls delete once per webhook method).
	if (!registration) return true;
	// n8n 2.40 deletes the GET and POST webhooks at the same time: the first call takes the
	// registration before its first request, so the numbers are restored once, not twice.
	writeRegistration.call(this, key, undefined);

	const saved = Object.entries(registration.numbers);
	let records: Map<string, IDataObject>;
	try {
		records = await currentRecords.call(
			this,
			saved.map(([number]) => number),
		);
	} catch (error) {
		writeRegistration.call(this, key, registration);
		throw asNodeError(this.getNode(), error);
	}
	const { failures: failed } = await forEachLimited(
		saved,
		async ([number, before]) => {
			const current = records.get(number);
			if (!current) {
				this.logger.info(`Virtual Number Trigger: ${number} is no longer in the account (released?); skipped`);
				return;
			}
			if (baseOf(text(current.callback_url)) !== key) {
				// Someone pointed the number elsewhere since activation: their change wins.
				this.logger.info(
					`Virtual Number Trigger: ${number} no longer points to this trigger; its callback URL was left as it is`,
				);
				return;
			}
			try {
				await setCallback.call(this, number, before.previousUrl, before.previousOption, current);
			} catch (error) {
				if (codeOf(error) !== NOT_IN_ACCOUNT) throw asNodeError(this.getNode(), error);
				this.logger.info(`Virtual Number Trigger: ${number} is no longer in the account (released?); skipped`);
			}
		},
		false,
	);
	const failures = failed.map(({ item, error }) => ({ number: item[0], error }));
	const remaining: Record<string, SavedNumber> = Object.fromEntries(failed.map(({ item }) => item));

	if (failures.length === 0) {
		writeRegistration.call(this, key, undefined);
		return true;
	}
	// Kept, so the next deactivation attempt restores what is left.
	writeRegistration.call(this, key, { ...registration, numbers: remaining });
	const first = failures[0];
	throw new NodeOperationError(
		this.getNode(),
		`Could not restore the previous callback URL of ${listNumbers(failures.map((failure) => failure.number))}`,
		{
			description: `${first.number}: ${describe(first.error)}. The other numbers were restored; the failed ones are remembered and restored on the next deactivation.`,
		},
	);
}

// ---- the secret, never shown -------------------------------------------------------------------

const MASK = '********';

/**
 * The forms in which the trigger's secret can appear in an answer the service quotes back (its
 * record holds the registered URL): as typed, URL-encoded, JSON-escaped.
 */
export function secretForms(this: IHookFunctions): string[] {
	let secret = '';
	try {
		secret = String(((this.getNodeParameter('options', {}) ?? {}) as IDataObject).secret ?? '');
	} catch {
		return [];
	}
	if (secret === '') return [];
	return [...new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])];
}

export function hideSecret(text: string, forms: string[]): string {
	return forms.reduce((result, form) => result.split(form).join(MASK), text);
}

/** The error with the secret masked wherever n8n shows or stores it (message, description, data). */
export function withoutTriggerSecret(error: unknown, forms: string[]): unknown {
	if (forms.length === 0 || !(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	error.message = hideSecret(error.message, forms);
	if (error.description) error.description = hideSecret(error.description, forms);
	const scrub = <T>(value: T): T => (value === undefined ? value : (JSON.parse(hideSecret(JSON.stringify(value), forms)) as T));
	if (error.context.data !== undefined) error.context.data = scrub(error.context.data);
	const withCause = error as { cause?: unknown; messages?: string[] };
	if (withCause.cause !== undefined && !(withCause.cause instanceof Error)) withCause.cause = scrub(withCause.cause);
	if (Array.isArray(withCause.messages)) withCause.messages = withCause.messages.map((message) => hideSecret(String(message), forms));
	return error;
}
