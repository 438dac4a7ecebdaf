/**
 * The set-up the trigger's callback tests share (receive, request and its Allowed IPs, normalize, the events):
 * a sandbox and a trigger host per file, triggers activated on the sandbox's credential (deactivated
 * after each test), and what a call's callbacks must come out as. Call it inside the file's `describe`.
 */
import assert from 'node:assert/strict';
import { beforeEach } from 'node:test';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { hostPerFile, sandboxPerFile, vnCredential } from '../../../../dev/harness/nodeTest.mts';
import type { TriggerInstance } from '../../../../dev/harness/trigger.mts';
import type { Sandbox } from '../../../../dev/sandbox/index.mts';

export const CALLS = ['callStarted', 'callEnded'];
export const SECRET = 'Ab3$ecret+/=';

export function callbackSetup() {
	const active: TriggerInstance[] = [];
	// Registered before the sandbox's reset, so the numbers are given back before it.
	beforeEach(async () => {
		for (const t of active.splice(0)) await t.deactivate().catch(() => undefined);
	});
	const sandbox = sandboxPerFile({
		beforeEach: (s) => void s.control.configure({ callbackStyle: 'json', callStartRepeats: 1 }),
	});
	const host = hostPerFile();

	const numbers = () =>
		sandbox.control
			.virtualnums()
			.filter((r) => r.active_status === 1)
			.map((r) => r.virtualnum);
	async function activated(
		parameters: IDataObject,
		typeVersion?: number,
	): Promise<TriggerInstance> {
		const credentials = { virtualnumApi: vnCredential(sandbox) };
		const t = host.add({ parameters, credentials, typeVersion });
		await t.activate();
		active.push(t);
		return t;
	}
	const post = (url: string, body: string, contentType?: string) =>
		fetch(url, {
			method: 'POST',
			body,
			headers: contentType ? { 'Content-Type': contentType } : {},
		});
	/** A call time of the service with the offset of its clock (the credential's Service Time Zone). */
	const withOffset = (time: string) =>
		DateTime.fromSQL(time, { zone: 'Asia/Jerusalem' }).toISO({ suppressMilliseconds: true });
	/** The normalized fields a call's callbacks must come out with (the vocabulary of nodes/shared/callFields.ts). */
	function expectedCall(
		call: Awaited<ReturnType<Sandbox['control']['placeCall']>>['call'],
		event: 'call.started' | 'call.ended',
	) {
		const ended = event === 'call.ended';
		return {
			event,
			callId: call.cdr_uniqueid,
			virtualNumber: call.cdr_ddi,
			callerNumber: call.cdr_ani,
			destinationPhone: call.user_phone,
			numberDescription: call.user_name,
			callStatus: ended ? call.call_status : null,
			startTime: call.start_call,
			startedAt: withOffset(call.start_call),
			endTime: ended ? call.end_call : null,
			endedAt: ended ? withOffset(call.end_call) : null,
			durationSec: ended ? call.call_duration : null,
			recordingExists: ended ? call.has_recording : null,
			recordingUrl: null,
			agentRating: null,
			marketingMetadata: null,
			adClickId: null,
		};
	}
	/** An item without what changes from run to run (checked here: receivedAt is a timestamp). */
	const stable = (json: IDataObject) => {
		const { receivedAt, method, query, body, ...rest } = json;
		assert.ok(!Number.isNaN(Date.parse(String(receivedAt))), 'receivedAt is a timestamp');
		void method;
		void query;
		void body;
		return rest;
	};
	return { sandbox, host, numbers, activated, post, withOffset, expectedCall, stable };
}
