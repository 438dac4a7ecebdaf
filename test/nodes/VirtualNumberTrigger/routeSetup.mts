/**
 * What the Route Call tests share (both ways of answering: routeCall.test.mts and the Route
 * Incoming Call node's test): a call start sent to a trigger's URL and timed, the outcome of its
 * run once it ended, and whether a log line appeared.
 */
import assert from 'node:assert/strict';

import type { TriggerHost, TriggerInstance } from '../../../dev/harness/trigger.mts';
import type { Sandbox } from '../../../dev/sandbox/index.mts';

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

/** The VIP caller (answered 050-999-8888 by the tests' workflows) and another call the number; the routes the sandbox took. */
export async function callVipAndOther(sandbox: Sandbox, number: string) {
	await sandbox.control.placeCall({ virtualnum: number, caller: '0547770001' });
	await sandbox.control.placeCall({ virtualnum: number, caller: '0547770002' });
	const routes = sandbox.control.routes();
	assert.equal(routes.length, 2);
	assert.equal(routes[0].destination, '0509998888');
	assert.equal(routes[1].destination, '', "the other caller keeps the number's routing");
	return routes;
}
