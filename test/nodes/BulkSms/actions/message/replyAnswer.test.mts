/**
 * Send and Wait for Response, Answer By: SMS Reply: the waiting node's webhook reading a relayed
 * reply, through the node's webhook function with n8n's WebhookContext (dev/harness/trigger.mts),
 * the re-ask against the SMS sandbox. n8n's own part (the signature, resuming once) is proven in
 * dev/e2e/lib/smsReplies.mts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import {
	TriggerHost,
	type TriggerInstance,
	type WebhookOutcome,
} from '../../../../../dev/harness/trigger.mts';
import { waitingNode } from './waitingNode.mts';

const APPROVAL = JSON.stringify([
	['approved', '1', 'כן', 'yes', 'מאשר'],
	['declined', '2', 'לא', 'no'],
]);

function query(extra: IDataObject = {}): IDataObject {
	return {
		to: '972541110010',
		via: 'sms',
		from: '0501234567',
		answers: APPROVAL,
		signature: 'checked-by-n8n',
		...extra,
	};
}

const reply = (text: string, extra: IDataObject = {}) => ({
	virtualnumRelay: 1,
	kind: 'reply',
	text,
	from: '0541110010',
	to: '0501234567',
	receivedAt: '2026-11-24 12:30:05',
	optOut: false,
	reasked: false,
	...extra,
});

describe('Send and Wait for Response by SMS reply: the relayed reply', () => {
	const sandbox = sandboxPerFile();
	let host: TriggerHost;
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	const waiting = (): TriggerInstance =>
		waitingNode(
			host,
			{ resource: 'message', operation: 'sendAndWait', answerBy: 'smsReply' },
			{ virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms } },
		);
	const relay = async (body: unknown, extra: IDataObject = {}) =>
		await waiting().receive({ method: 'POST', query: query(extra), body }, { execute: false });
	const data = (outcome: WebhookOutcome) =>
		outcome.result?.workflowData?.[0]?.[0]?.json.data as IDataObject;
	const sent = () =>
		sandbox.control
			.requests({ service: 'sms', operation: 'send_sms' })
			.flatMap((request) => request.body as IDataObject[]);

	test('an answer resumes the run with it, and the relay is told in JSON', async () => {
		const cases: Array<[string, string]> = [
			['1', 'approved'],
			['כן!', 'approved'],
			['  YES please ', 'approved'],
			['\u200Fמאשר\u200E', 'approved'],
			['2', 'declined'],
			['לא תודה', 'declined'],
		];
		for (const [text, answer] of cases) {
			const before = Date.now();
			const outcome = await relay(reply(text));
			assert.equal(outcome.started, true, text);
			assert.deepEqual(JSON.parse(outcome.responseBody), { virtualnumRelay: 'resumed' });
			const { respondedAt, ...rest } = data(outcome);
			assert.deepEqual(rest, {
				outcome: 'answered',
				approved: answer === 'approved',
				answer,
				text,
				respondedBy: '0541110010',
			});
			assert.ok(Date.parse(String(respondedAt)) >= before - 1000);
		}
	});

	test('whitespace, emoji or words matching no answer resume as unclear with the text, when nothing asks again', async () => {
		for (const text of ['   ', '👍', 'maybe tomorrow', '12']) {
			const outcome = await relay(reply(text));
			assert.equal(outcome.started, true, text);
			assert.deepEqual(
				{ ...data(outcome), respondedAt: undefined },
				{ outcome: 'unclear', text, respondedBy: '0541110010', respondedAt: undefined },
			);
		}
		assert.equal(sent().length, 0);
	});

	test('Ask Again When Unclear: once, from the number the question came from; the next unclear reply resumes', async () => {
		const reask = 'Please reply 1 to confirm or 2 to cancel';
		const first = await relay(reply('what?'), { reask });
		assert.equal(first.started, false);
		assert.deepEqual(JSON.parse(first.responseBody), { virtualnumRelay: 'reasked' });
		const [message] = sent();
		assert.deepEqual(
			{ dest: message.dest, sender: message.sender, message: message.message },
			{ dest: '972541110010', sender: '0501234567', message: reask },
		);
		const second = await relay(reply('what??', { reasked: true }), { reask });
		assert.equal(second.started, true);
		assert.equal(data(second).outcome, 'unclear');
		assert.equal(sent().length, 1);
		const answered = await relay(reply('1', { reasked: true }), { reask });
		assert.equal(data(answered).approved, true);
	});

	test('a re-ask the service refuses does not leave the run waiting for an answer nobody was asked for', async () => {
		const outcome = await relay(reply('hmm'), {
			reask: 'Reply 1 or 2',
			from: '0527654321',
		});
		assert.equal(outcome.started, true);
		assert.equal(data(outcome).outcome, 'unclear');
		assert.match(String(data(outcome).reaskError), /not verified/);
	});

	test('an opt-out ends the wait as declined, with Approval and with Free Text', async () => {
		const approval = data(await relay(reply('STOP', { optOut: true })));
		assert.deepEqual(
			{ ...approval, respondedAt: undefined },
			{
				outcome: 'optedOut',
				approved: false,
				answer: 'declined',
				optOut: true,
				text: 'STOP',
				respondedBy: '0541110010',
				respondedAt: undefined,
			},
		);
		const free = data(await relay(reply('הסר', { optOut: true }), { answers: undefined }));
		assert.equal(free.outcome, 'optedOut');
		assert.equal(free.optOut, true);
	});

	test('Free Text takes the reply as it is; only an empty one is unclear', async () => {
		const text = '  I can come at 11 instead 🙂 ';
		const answered = data(await relay(reply(text), { answers: undefined }));
		assert.equal(answered.outcome, 'answered');
		assert.equal(answered.answer, text);
		assert.equal(answered.text, text);
		assert.equal('approved' in answered, false);
		const empty = data(await relay(reply(' \n '), { answers: undefined }));
		assert.equal(empty.outcome, 'unclear');
	});

	test('a newer question to the same person resumes the run as superseded, naming the newer run', async () => {
		const outcome = await relay({ virtualnumRelay: 1, kind: 'superseded', by: '1187' });
		assert.equal(outcome.started, true);
		assert.deepEqual(
			{ ...data(outcome), respondedAt: undefined },
			{
				outcome: 'superseded',
				supersededBy: '1187',
				respondedBy: '972541110010',
				respondedAt: undefined,
			},
		);
	});

	test('anything but a relayed reply is refused and resumes nothing: a GET, a form post, a forged shape', async () => {
		const node = waiting();
		for (const request of [
			{ method: 'GET', query: query() },
			{ method: 'POST', query: query(), body: { answer: 'approve' } },
			{ method: 'POST', query: query(), body: { virtualnumRelay: 1, kind: 'reply' } },
		]) {
			const outcome = await node.receive(request, { execute: false });
			assert.equal(outcome.status, 400);
			assert.equal(outcome.started, false);
			assert.match(outcome.responseBody, /answered by an SMS reply/);
		}
	});
});
