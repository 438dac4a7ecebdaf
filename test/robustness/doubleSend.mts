/**
 * No double send: an SMS batch or a call placement whose answer was lost (HTTP 5xx, a proxy page,
 * a cut-off or empty answer, after the service may already have accepted it) is reported as
 * "may have been sent/carried out: check before running it again", with exactly one request and
 * no retry. (The timeouts of the same operations are in hangs.mts: they wait the default 60 s.)
 */
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import type { FaultSpec, Sandbox } from '../../dev/sandbox/index.mts';
import { MAY_HAVE_HAPPENED, failureOf, outputOf, rl, runOne, type NodeType } from './support.mts';

interface Send {
	label: string;
	type: NodeType;
	server: 'vn' | 'sms';
	service: string;
	parameters: IDataObject;
	/** What the service did, to tell whether it accepted the request before the answer was lost. */
	done(sandbox: Sandbox): number;
}

const SENDS: Send[] = [
	{
		label: 'Bulk SMS → Send (one batch of 3)',
		type: 'bulkSms',
		server: 'sms',
		service: 'send_sms',
		parameters: {
			resource: 'message',
			operation: 'send',
			sender: rl('VirtualNum'),
			to: '0501234567, 0527654321, 0541112233',
			message: 'Once only',
		},
		done: (sandbox) => sandbox.control.messages().length,
	},
	{
		label: 'Virtual Number → Click to Call',
		type: 'virtualNumber',
		server: 'vn',
		service: 'create_virtualnum_call',
		parameters: {
			resource: 'call',
			operation: 'clickToCall',
			virtualnum: rl('0722000100'),
			destination: '0501234567',
		},
		done: (sandbox) => sandbox.control.cdrs().length,
	},
	{
		label: 'Virtual Number → Two-Leg Call',
		type: 'virtualNumber',
		server: 'vn',
		service: 'create_virtualnum_call_v2',
		parameters: {
			resource: 'call',
			operation: 'twoLegCall',
			virtualnum1: rl('0722000100'),
			destination1: '0501234567',
			destination2: '0527654321',
		},
		done: (sandbox) => sandbox.control.cdrs().length,
	},
];

const LOST: Array<{ name: string; fault: FaultSpec; accepted: boolean }> = [
	{ name: 'HTTP 500', fault: { kind: 'http500' }, accepted: false },
	{ name: 'a 502 proxy page', fault: { kind: 'html' }, accepted: false },
	{ name: 'an empty answer', fault: { kind: 'empty' }, accepted: false },
	{
		name: 'an answer cut off after the service accepted',
		fault: { kind: 'truncatedJson' },
		accepted: true,
	},
];

export function doubleSendSuite(sandbox: () => Sandbox): void {
	describe('No double send: a send or call whose answer was lost is reported, never retried', () => {
		beforeEach(() => sandbox().control.reset());

		for (const send of SENDS) {
			for (const lost of LOST) {
				test(`${send.label}: ${lost.name} → "may have been …: check before …", one request`, async () => {
					for (const continueOnFail of [false, true]) {
						sandbox().control.reset();
						const before = send.done(sandbox());
						sandbox().control.injectFaults({
							...lost.fault,
							server: send.server,
							operation: send.service,
						});
						const result = await runOne(
							`double send ${send.service} ${lost.name}`,
							sandbox(),
							send.type,
							send.parameters,
							{ continueOnFail },
						);

						assert.equal(
							sandbox().control.requests({ service: send.server, operation: send.service }).length,
							1,
							'exactly one request, no retry',
						);
						// The sandbox really did (or did not) carry it out: the node cannot know, so it must say "may have".
						assert.equal(send.done(sandbox()) > before, lost.accepted, 'what the service did');
						let words: string[];
						if (continueOnFail) {
							const items = outputOf(result);
							assert.ok(
								items.length > 0 && items.every((item) => item.json.error !== undefined),
								'error items only: nothing reported as sent',
							);
							words = items.map(
								(item) => `${String(item.json.error)}\n${String(item.json.errorDescription ?? '')}`,
							);
						} else {
							const error = failureOf(result);
							words = [`${error.message}\n${error.description ?? ''}`];
						}
						for (const text of words) {
							assert.match(
								text,
								new RegExp(`\\b${send.service}\\b`),
								`names ${send.service}: ${text}`,
							);
							assert.match(text, MAY_HAVE_HAPPENED, `says it may have been carried out: ${text}`);
							assert.match(
								text,
								/check (the notifications report )?before (running it|sending) again/i,
								`says to check before repeating: ${text}`,
							);
						}
					}
				});
			}
		}
	});
}
