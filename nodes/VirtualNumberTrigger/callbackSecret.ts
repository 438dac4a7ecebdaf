/**
 * The secret every callback must carry, with no setup: which secret a request must show, the one
 * generated at activation, and the rate-limited line a refused request writes.
 *
 * The URL a number calls is registered by the trigger itself, so the trigger can put a secret in
 * it that nobody typed: generated at the first activation and kept in the workflow's static data,
 * which every process reads from the database (a restart, queue mode's webhook processors, a second
 * main), so they all check the same value. It is kept, not rotated on each activation: a new value
 * would refuse the callbacks of calls already under way on the URLs the numbers carry. Node
 * version 1.1 does this; version 1 keeps what its saved workflows were built on (a request without
 * a secret passes when no Secret is set).
 *
 * URLs the user pastes by hand (the inbound-SMS URL set at the provider, Bulk SMS Send's Delivery
 * Report URL) can only carry a secret the editor can show (a notice cannot read the static data),
 * so the user's own Secret is theirs: version 1.1 asks for it when an SMS event is chosen
 * (settings.ts).
 *
 * Numbers that carry a URL registered without a secret (before the static data holding the
 * generated one was saved; n8n 2.x does not activate webhook triggers again on restart) keep
 * reaching the workflow until its next activation: with no generated secret in the static data, a
 * callback without one is accepted, so no call is lost.
 */
import { randomBytes } from 'crypto';
import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

/** Where the generated secret is kept in the trigger node's static data. */
const SECRET_KEY = 'callbackSecret';
/** When a refused request was last logged (ms), so a flood of forged callbacks writes one line a minute. */
const LOGGED_KEY = 'refusalLoggedAt';
const LOG_EVERY_MS = 60 * 1000;

function staticData(context: IHookFunctions | IWebhookFunctions): IDataObject {
	return context.getWorkflowStaticData('node') as IDataObject;
}

/** The secret generated at an earlier activation, or undefined (never activated since this version). */
export function generatedSecret(context: IHookFunctions | IWebhookFunctions): string | undefined {
	const saved = staticData(context)[SECRET_KEY];
	return typeof saved === 'string' && saved !== '' ? saved : undefined;
}

/** The generated secret, created now (24 random bytes, URL-safe) when the workflow has none yet. */
export function activationSecret(context: IHookFunctions): string {
	const saved = generatedSecret(context);
	if (saved !== undefined) return saved;
	const secret = randomBytes(24).toString('base64url');
	staticData(context)[SECRET_KEY] = secret;
	return secret;
}

/**
 * The secret a callback must carry: the Secret the user set, else (with `generates`) the one
 * generated at activation. Undefined when a request without one is accepted: node version 1 with
 * no Secret (as it always did), or a workflow not activated since this version.
 */
export function expectedSecret(
	context: IWebhookFunctions,
	userSecret: string,
	generates: boolean,
): string | undefined {
	if (userSecret !== '') return userSecret;
	return generates ? generatedSecret(context) : undefined;
}

/**
 * Whether a refused request is logged now: the first refusal of each minute is (per workflow, in
 * its static data, so every process agrees). Saved with the callback's static data by n8n.
 */
export function logRefusalNow(context: IWebhookFunctions, now: number): boolean {
	const data = staticData(context);
	const last = Number(data[LOGGED_KEY]);
	if (Number.isFinite(last) && now - last >= 0 && now - last < LOG_EVERY_MS) return false;
	data[LOGGED_KEY] = now;
	return true;
}
