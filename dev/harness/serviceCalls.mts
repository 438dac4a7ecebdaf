/** Calls a test makes at the sandboxed service itself, as a user or another integration would. */
import type { Sandbox } from '../sandbox/index.mts';

/**
 * Sets a number's callback URL straight at the service, through `update_virtualnum` as a user, a CRM
 * or another n8n would (the trigger then finds it there).
 */
export async function setCallbackAtService(
	sandbox: Sandbox,
	number: string,
	url: string,
	option: number,
): Promise<void> {
	const record = sandbox.control.virtualnum(number)!;
	const answer = await fetch(`${sandbox.vnUrl}/api/?service=update_virtualnum&format=json`, {
		method: 'POST',
		headers: {
			Authorization: `Bearer ${sandbox.tokens.vn}`,
			'Content-Type': 'application/x-www-form-urlencoded',
		},
		body: new URLSearchParams({
			virtualnum: number,
			description: record.description,
			call_destination_phone: record.call_destination_phone,
			callback_url: url,
			callback_url_option: String(option),
		}),
	});
	const { status } = (await answer.json()) as { status: { code: number; description: string } };
	if (status.code !== 200)
		throw new Error(`update_virtualnum: ${status.code} ${status.description}`);
}
