/**
 * SMS Received opt-outs however a phone writes them: case, punctuation and spaces, full-width
 * letters (NFKC), invisible and direction characters, Hebrew points, common phrasings; a refusal
 * word inside an ordinary sentence is none ("stopwatch", "don't stop"). `text` is the message
 * exactly as received. With Keywords set, an opt-out still starts an execution. Requests go through
 * the harness's HTTP server as n8n's webhook server would parse them; docs/trigger.md has the
 * table, and test/corpus/smsReceived.test.mts sends the whole field-data corpus.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { TriggerHost, type TriggerInstance } from '../../../../../dev/harness/trigger.mts';

const SMS = { from: '0541234567', to: '0722000100', time: '2026-11-24 12:30:05' };
const SECRET = 'inbound-s3cret';

/** Each row: the message as sent, and whether it is an opt-out under the default phrases. */
const OPT_OUT_TABLE: Array<[string, boolean, string]> = [
	['STOP', true, 'the keyword'],
	['stop', true, 'lower case'],
	['Stop!', true, 'punctuation after'],
	['  stop  ', true, 'spaces around'],
	['"STOP."', true, 'quotes and a full stop'],
	['stop please', true, 'words after it'],
	['Stop all', true, 'STOP ALL'],
	['STOPALL', true, 'STOPALL'],
	['Unsubscribe me', true, 'UNSUBSCRIBE'],
	['opt-out', true, 'OPT OUT with a hyphen'],
	['OPTOUT', true, 'OPTOUT'],
	['remove me', true, 'REMOVE ME'],
	['ＳＴＯＰ', true, 'full-width letters (NFKC)'],
	['S\u200bTOP', true, 'a zero-width space inside'],
	['\u200fSTOP\u200e', true, 'direction marks (RLM, LRM)'],
	['\u202bSTOP\u202c', true, 'a bidi embedding'],
	['\ufeffstop', true, 'a byte-order mark'],
	['הסר', true, 'Hebrew: remove'],
	['הָסֵר', true, 'Hebrew points (niqqud)'],
	['\u200fהסר\u200f', true, 'Hebrew with RLM marks'],
	['הסרה בבקשה', true, 'Hebrew: removal, please'],
	['להסרה', true, 'Hebrew: for removal'],
	['הסר אותי', true, 'Hebrew: remove me'],
	['הסירו אותי מהרשימה', true, 'Hebrew: remove me from the list (plural)'],
	['תסירו אותי', true, 'Hebrew: remove me (future form)'],
	['Please stop', true, 'courtesy before'],
	['stopwatch', false, 'a longer word'],
	['STOPPED', false, 'a longer word'],
	["don't stop", false, 'a negated refusal'],
	['bus stop at 5', false, 'a noun in a sentence'],
	['הסרט היה טוב', false, 'Hebrew: "the film was good" (a longer word)'],
	['Hello', false, 'an ordinary message'],
];

describe('Virtual Number Trigger → SMS Received → opt-outs', () => {
	let host: TriggerHost;
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	const trigger = (options: IDataObject = {}) =>
		host.add({
			typeVersion: 1.1,
			parameters: { events: ['smsReceived'], options: { secret: SECRET, ...options } },
			credentials: { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } },
		});
	async function send(t: TriggerInstance, msg: string, method = 'GET') {
		const query = new URLSearchParams({ ...SMS, msg }).toString();
		const url = `${t.webhookUrl}?secret=${SECRET}`;
		const answer =
			method === 'GET'
				? await fetch(`${url}&${query}`)
				: await fetch(url, {
						method,
						headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
						body: query,
					});
		assert.equal(answer.status, 200);
		return t.outcomes.at(-1)!;
	}

	test('the default phrases, however a phone writes them; what deliberately does not match', async () => {
		const t = trigger();
		for (const [msg, optOut, why] of OPT_OUT_TABLE) {
			const outcome = await send(t, msg);
			assert.equal(outcome.started, true, `${why}: every message starts the workflow`);
			assert.equal(outcome.items[0].json.optOut, optOut, `${JSON.stringify(msg)}: ${why}`);
		}
	});

	for (const method of ['GET', 'POST']) {
		test(`text is the message exactly as received (${method}): spaces and invisible characters kept`, async () => {
			const t = trigger();
			for (const msg of ['  stop  ', '\u200fהסר\u200f', ' Hello there \n']) {
				const item = (await send(t, msg, method)).items[0].json;
				assert.equal(item.text, msg);
			}
		});
	}

	test('Keywords set: a message starting with one starts the workflow, and so does every opt-out', async () => {
		const t = trigger({ keywords: 'INFO, join us' });
		assert.equal((await send(t, 'ＩＮＦＯ please')).started, true, 'read as the opt-outs are');
		assert.equal((await send(t, 'Join us!')).started, true);
		assert.equal((await send(t, 'join')).started, false, 'the whole phrase');
		assert.equal((await send(t, 'hello')).started, false);
		for (const msg of ['S\u200bTOP', 'הָסֵר', 'unsubscribe']) {
			const outcome = await send(t, msg);
			assert.equal(outcome.started, true, `${JSON.stringify(msg)} is never lost`);
			assert.equal(outcome.items[0].json.optOut, true);
		}
	});

	test('Opt-Out Keywords add refusals, phrases included, read the same way; the built-in ones stay', async () => {
		const t = trigger({ optOutKeywords: 'BASTA, Cancel subscription' });
		assert.equal((await send(t, 'בָּטֵל')).items[0].json.optOut, true, 'built in: cancel');
		assert.equal((await send(t, 'ＢＡＳＴＡ')).items[0].json.optOut, true);
		assert.equal((await send(t, 'CANCEL SUBSCRIPTION now')).items[0].json.optOut, true);
		assert.equal((await send(t, 'STOP')).items[0].json.optOut, true, 'a refusal is never lost');
		assert.equal((await send(t, 'pasta basta')).items[0].json.optOut, false);
	});

	test('a message that may be a refusal: optOutReview and optOutReason; with Keywords set it still starts the workflow', async () => {
		const t = trigger({ keywords: 'ORDER' });
		const outcome = await send(t, 'הסירו את החלב מההזמנה שלי');
		assert.equal(outcome.started, true, 'a person must see it');
		const item = outcome.items[0].json;
		assert.equal(item.optOut, false);
		assert.equal(item.optOutReview, true);
		assert.match(String(item.optOutReason), /"הסירו" with other words/);
		const plain = (await send(t, 'ORDER 5')).items[0].json;
		assert.equal('optOutReview' in plain || 'optOutReason' in plain, false, 'only when unsure');
	});
});
