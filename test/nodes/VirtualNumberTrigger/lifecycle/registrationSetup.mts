/**
 * The set-up the trigger's lifecycle tests share (registration, its version 0.1 records, plan; the
 * settings, the node, the secret's URL check and Allowed IPs use it too):
 * a sandbox and a trigger host per file, triggers on the sandbox's credential, and readers of what
 * the numbers hold. Call it inside the file's `describe`.
 */
import assert from 'node:assert/strict';

import type { IDataObject, IHookFunctions, INode } from 'n8n-workflow';

import { registeredUrl } from '../../../../nodes/shared/triggerUrl.ts';
import { readSettings } from '../../../../nodes/VirtualNumberTrigger/settings.ts';
import { hostPerFile, sandboxPerFile, vnCredential } from '../../../../dev/harness/nodeTest.mts';
import { setCallbackAtService } from '../../../../dev/harness/serviceCalls.mts';
import { selectedNumbers, type TriggerInstance } from '../../../../dev/harness/trigger.mts';

export const CALLS = ['callStarted', 'callEnded'];
export const FOREIGN = 'https://crm.example.com/hooks/calls?source=virtualnum';
export const NODE_KEY = 'node:Virtual Number Trigger';

/** A node as the settings read it. */
export const NODE = {
	id: '1',
	name: 'Virtual Number Trigger',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;

/** The trigger's settings as activation and the webhook read them from the node's parameters. */
export function settingsOf(parameters: IDataObject) {
	const context = {
		getNode: () => NODE,
		getNodeParameter: (name: string, fallback?: unknown) => parameters[name] ?? fallback,
	} as unknown as IHookFunctions;
	return readSettings.call(context);
}

export function registrationSetup() {
	const sandbox = sandboxPerFile();
	const host = hostPerFile();

	const numbers = () =>
		sandbox.control
			.virtualnums()
			.filter((r) => r.active_status === 1)
			.map((r) => r.virtualnum);
	const trigger = (
		parameters: IDataObject,
		extra: { baseUrl?: string; webhookId?: string; typeVersion?: number } = {},
	) =>
		host.add({
			parameters,
			webhookId: extra.webhookId,
			typeVersion: extra.typeVersion,
			credentials: {
				virtualnumApi: vnCredential(sandbox, extra.baseUrl ? { baseUrl: extra.baseUrl } : {}),
			},
		});
	const updates = () =>
		sandbox.control
			.requests({ operation: 'update_virtualnum' })
			.map((r) => r.body as Record<string, string>);
	const callbackOf = (number: string) => {
		const record = sandbox.control.virtualnum(number)!;
		return { url: record.callback_url, option: record.callback_url_option };
	};
	/** The URL the trigger registers on a number whose callback was `previous` (production). */
	const urlFor = (t: TriggerInstance, previous: { url: string; option: number }, secret = '') =>
		registeredUrl(t.webhookUrl, secret, 'live', previous);
	/** A third party (another integration) sets a number's callback through the API. */
	const setForeignCallback = (number: string, url: string, option: number) =>
		setCallbackAtService(sandbox, number, url, option);
	/** A number with a CRM's callback URL (option 1), and a trigger on it alone. */
	async function oneWithForeign() {
		const [a] = numbers();
		await setForeignCallback(a, FOREIGN, 1);
		return {
			a,
			t: trigger({ events: CALLS, numbers: 'selected', virtualnums: selectedNumbers([a]) }),
		};
	}
	/** Three numbers, the first with a CRM's callback URL, and each one's callback now. */
	async function threeWithForeign() {
		const three = numbers().slice(0, 3);
		await setForeignCallback(three[0], FOREIGN, 1);
		return { three, before: Object.fromEntries(three.map((n) => [n, callbackOf(n)])) };
	}
	async function release(number: string) {
		const answer = await fetch(
			`${sandbox.vnUrl}/api/?service=release_virtualnum&format=json&virtualnum=${number}`,
			{ headers: { Authorization: `Bearer ${sandbox.tokens.vn}` } },
		);
		assert.equal(((await answer.json()) as { status: { code: number } }).status.code, 200);
	}
	return {
		sandbox,
		host,
		numbers,
		trigger,
		updates,
		callbackOf,
		urlFor,
		setForeignCallback,
		oneWithForeign,
		threeWithForeign,
		release,
	};
}
