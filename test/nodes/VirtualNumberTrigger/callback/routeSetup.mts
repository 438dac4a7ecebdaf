/**
 * What the Route Call tests share (both ways of answering: routeCall.test.mts and the Route
 * Incoming Call node's test): a call start sent to a trigger's URL and timed, the outcome of its
 * run once it ended, whether a log line appeared, and the VIP routing against the sandbox.
 */
import assert from 'node:assert/strict';

import {
	selectedNumbers,
	type TriggerHost,
	type TriggerInstance,
	type TriggerOptions,
} from '../../../../dev/harness/trigger.mts';
import type { Sandbox } from '../../../../dev/sandbox/index.mts';

export const START = {
	event: 'start',
	call_uuid: 'c-1',
	cdr_ddi: '0722000100',
	cdr_ani: '0501234567',
};

/** A callback (a call start unless other fields are given) as the service sends it, and the answer it got. */
export async function call(t: TriggerInstance, fields: Record<string, string> = START) {
	const began = Date.now();
	const answer = await fetch(`${t.webhookUrl}?${new URLSearchParams(fields).toString()}`);
	const text = await answer.text();
	return {
		status: answer.status,
		text,
		type: answer.headers.get('content-type'),
		ms: Date.now() - began,
	};
}

/** The outcome of the trigger's latest request, once its run ended (at most 3 s). */
export async function settled(t: TriggerInstance) {
	for (let i = 0; i < 150 && t.outcomes.length === 0; i++)
		await new Promise((resolve) => setTimeout(resolve, 20));
	return t.outcomes.at(-1)!;
}

/** Whether a log line with `words` was written since the host's `from`-th line. */
export async function logged(host: TriggerHost, from: number, words: string): Promise<boolean> {
	await new Promise((resolve) => setTimeout(resolve, 50));
	return host.logsSince(from).some((line) => line.includes(words));
}

/**
 * A trigger on the sandbox's first active number, answering call starts as `respondWith` says
 * through `downstream`; the VIP caller (to be answered 050-999-8888) and another call it. Asserts
 * the VIP was routed to the direct line and the other kept the number's routing; the routes taken.
 */
export async function routeVipAndOther(
	host: TriggerHost,
	sandbox: Sandbox,
	respondWith: string,
	downstream: TriggerOptions['downstream'],
) {
	const number = sandbox.control.virtualnums().find((r) => r.active_status === 1)!.virtualnum;
	const t = host.add({
		parameters: {
			events: ['callStarted'],
			numbers: 'selected',
			virtualnums: selectedNumbers([number]),
			options: { respondWith, secret: 'route-s3cret' },
		},
		credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		downstream,
	});
	await t.activate();
	try {
		await sandbox.control.placeCall({ virtualnum: number, caller: '0547770001' });
		await sandbox.control.placeCall({ virtualnum: number, caller: '0547770002' });
		const routes = sandbox.control.routes();
		assert.equal(routes.length, 2);
		assert.equal(routes[0].destination, '0509998888');
		assert.equal(routes[1].destination, '', "the other caller keeps the number's routing");
		return routes;
	} finally {
		await t.deactivate();
	}
}
