/**
 * The one masker (nodes/shared/masking.ts) where a user sees it: another workflow's trigger Secret
 * holding an `&` in this trigger's activation error, a malformed Delivery Report URL quoted by
 * Bulk SMS Send, and a refused Send and Wait SMS whose refusal quotes the message (with the answer
 * link's signature) back. Through n8n's engine, against the sandbox.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { hostPerFile, sandboxPerFile } from '../../../dev/harness/nodeTest.mts';
import { setCallbackAtService } from '../../../dev/harness/serviceCalls.mts';
import { runWorkflow } from '../../../dev/harness/engine.mts';
import { selectedNumbers } from '../../../dev/harness/trigger.mts';

const TAIL = 'SecretTail99';

describe('secrets masked where the user sees them', () => {
	const sandbox = sandboxPerFile();
	const host = hostPerFile();

	const setCallback = (number: string, url: string) =>
		setCallbackAtService(sandbox, number, url, 3);

	test("another workflow's trigger Secret with an & shows no part of it in this activation's error", async () => {
		const [number] = sandbox.control.virtualnums().map((r) => r.virtualnum);
		const secret = `Ab3&${TAIL}`;
		const theirs =
			'https://n8n.example.com/webhook/3b89a70a-2568-4f61-b4c6-24d8f9b767cb/webhook' +
			`?secret=${encodeURIComponent(secret)}&vnt=live&vnt_prev=2`;
		await setCallback(number, theirs);
		const t = host.add({
			parameters: {
				events: ['callStarted', 'callEnded'],
				numbers: 'selected',
				virtualnums: selectedNumbers([number]),
			},
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		await assert.rejects(t.activate(), (error: Error & { description?: string }) => {
			const shown = `${error.message} ${error.description}`;
			assert.match(shown, /another workflow's Virtual Number Trigger/);
			assert.match(
				shown,
				/webhook\?secret=\*{8}&vnt=live/,
				'the value masked up to the next parameter',
			);
			assert.ok(!shown.includes(TAIL) && !shown.includes('Ab3'), shown);
			return true;
		});
	});

	/** Send's error for a Delivery Report URL with a space in it (nothing is sent). */
	async function malformedUrlError(callbackUrl: string): Promise<string> {
		const result = await runWorkflow({
			nodes: [
				{
					name: 'Send',
					type: 'bulkSms',
					parameters: {
						resource: 'message',
						operation: 'send',
						sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
						to: '0501234567',
						message: 'Hello',
						options: { callbackUrl },
					},
				},
			],
			input: [{ json: {} }],
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
			},
		});
		assert.equal(sandbox.control.messages().length, 0, 'nothing sent');
		return String(result.error?.message);
	}

	test('a malformed Delivery Report URL is not quoted with its secret', async () => {
		const message = await malformedUrlError(
			`https://n8n.example.com/webhook/x/webhook?secret=Top${TAIL} oops`,
		);
		assert.match(message, /^Delivery Report URL: must be a full http/);
		assert.match(message, /secret=\*{8}/);
		assert.ok(!message.includes(TAIL), message);
	});

	test("a malformed Delivery Report URL is not quoted with an SMS URL's token", async () => {
		const token = '0123456789abcdef0123456789abcdef';
		const id = '3f6c1d2a-8b4e-4c7a-9d15-6e2b0a7c4f81';
		const message = await malformedUrlError(
			`https://n8n.example.com/webhook/${id}/sms/${token} oops`,
		);
		assert.match(message, /^Delivery Report URL: must be a full http/);
		assert.match(message, new RegExp(`${id}/sms/\\*{3}`), 'masked, then shortened');
		assert.ok(!message.includes(token), message);
	});

	test('a refused Send and Wait SMS quoted back by the service shows no signature of the answer link', async () => {
		sandbox.control.injectFaults({
			kind: 'serviceError',
			code: 403,
			description: 'Message refused by content filter: {message}',
			server: 'sms',
		});
		const result = await runWorkflow({
			nodes: [
				{
					name: 'Ask',
					type: 'bulkSms',
					parameters: {
						resource: 'message',
						operation: 'sendAndWait',
						sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
						to: '0501234567',
						message: 'Approve the refund?',
						responseType: 'approval',
						options: {},
					},
				},
			],
			input: [{ json: {} }],
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
			},
		});
		const message = String(result.error?.message);
		assert.match(message, /refused the SMS to 0501234567: Message refused by content filter/);
		assert.match(
			message,
			/webhook-waiting\/\S+signature=\*{8}/,
			'the link is shown, its signature masked',
		);
		assert.doesNotMatch(message, /signature=(?!\*{8})/);
	});
});
