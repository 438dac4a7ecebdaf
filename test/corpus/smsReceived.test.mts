// The Virtual Number Trigger's SMS Received on every message of the field-data corpus, through the
// trigger harness as n8n runs a webhook (dev/harness/trigger.mts): each message the service
// forwards (GET, as integrators report it) starts one execution whose item says `optOut`, and
// `optOutReview` with `optOutReason` when a person should read it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { TriggerHost, type TriggerInstance } from '../../dev/harness/trigger.mts';
import { refusals, type Message } from './corpus.mts';

const SECRET = 'field-data-s3cret';
const SMS = { from: '0541234567', to: '0722000100', time: '2026-10-25 01:30:00' };

describe('field data through SMS Received', () => {
	let host: TriggerHost;
	let trigger: TriggerInstance;
	before(async () => {
		host = await TriggerHost.start();
		trigger = host.add({
			typeVersion: 1.1,
			parameters: { events: ['smsReceived'], options: { secret: SECRET, keywords: 'ORDER' } },
			credentials: { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } },
		});
	});
	after(async () => await host.close());

	/** The item of the execution one message started, or undefined when it started none. */
	async function received(msg: string): Promise<IDataObject | undefined> {
		const before = trigger.outcomes.length;
		const query = new URLSearchParams({ ...SMS, msg, secret: SECRET }).toString();
		const answer = await fetch(`${trigger.webhookUrl}?${query}`);
		assert.equal(answer.status, 200, msg);
		const outcome = trigger.outcomes.at(-1);
		assert.equal(trigger.outcomes.length, before + 1, msg);
		return outcome?.started ? outcome.items[0].json : undefined;
	}

	const label = ({ text, language, why }: Message) =>
		`${JSON.stringify(text)} (${language}, ${why})`;

	test('every refusal: optOut, and it starts the workflow although Keywords are set', async () => {
		for (const message of refusals.optOut) {
			const item = await received(message.text);
			assert.ok(item, `${label(message)} must start the workflow`);
			assert.equal(item.optOut, true, label(message));
			assert.equal(item.text, message.text, 'the text as received');
			assert.equal('optOutReview' in item, false, label(message));
		}
	});

	test('every message for review: optOutReview and optOutReason, it starts the workflow, no optOut', async () => {
		for (const message of refusals.review) {
			const item = await received(message.text);
			assert.ok(item, `${label(message)} must reach a person`);
			assert.equal(item.optOut, false, label(message));
			assert.equal(item.optOutReview, true, label(message));
			assert.equal(typeof item.optOutReason, 'string', label(message));
		}
	});

	test('every message that is none: no optOut, no review; Keywords decide whether it starts the workflow', async () => {
		// An empty msg is no SMS Received (the trigger reads the callback as an unknown event).
		for (const message of refusals.notOptOut.filter(({ text }) => text !== '')) {
			assert.equal(await received(message.text), undefined, `${label(message)}: not "ORDER…"`);
			const item = await received(`ORDER ${message.text}`);
			assert.ok(item, label(message));
			assert.equal(item.optOut, false, label(message));
			assert.equal('optOutReview' in item, false, label(message));
		}
	});
});
