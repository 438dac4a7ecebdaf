// Send's output and errors when recipients or batches fail (nodes/BulkSms/actions/message/output.ts).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { IDataObject } from 'n8n-workflow';
import { NODE, phone, SENDER_OF_ITEM, sendTest, UNAPPROVED } from './sendTest.mts';

describe('Bulk SMS → Message → Send: what a failure says', () => {
	const { sandbox, send, sendTo, sendRequests } = sendTest();

	describe('failed recipients', () => {
		// A number that cannot be a phone is refused before sending (phones.ts); the service refuses a
		// message from a sender the account does not have: a per-message failure.
		const input = [
			{ to: phone(1) },
			{ to: phone(2), sender: UNAPPROVED },
			{ to: phone(3) },
			{ to: phone(4), sender: UNAPPROVED },
			{ to: phone(5) },
		];
		const send = async (...args: Parameters<typeof sendTo>) =>
			await sendTo(args[0], { sender: SENDER_OF_ITEM, ...args[1] }, args[2]);

		test('with Continue On Fail: the 2 failed recipients are error items beside the 3 sent ones, each paired to its input', async () => {
			const result = await send(input, {}, { continueOnFail: true });
			assert.equal(result.error, undefined, result.error?.message);
			assert.equal(sendRequests().length, 1);
			const items = result.items(NODE);
			assert.equal(items.length, 5);
			items.forEach((item, i) => assert.deepEqual(item.pairedItem, { item: i }));
			for (const i of [0, 2, 4]) {
				assert.equal(items[i].json.status, 'Message in Action');
				assert.equal(items[i].json.error, undefined);
			}
			for (const [i, dest] of [
				[1, phone(2)],
				[3, phone(4)],
			] as const) {
				// The package's error item shape (docs/errors.md): the recipient in errorDetails, the status as errorCode.
				const json = items[i].json;
				assert.deepEqual(json.errorDetails, { recipient: dest, sender: UNAPPROVED });
				assert.equal(json.errorCode, 'Error - 403 Forbidden');
				assert.match(String(json.errorDescription), /not an approved sender/);
				assert.match(
					String(json.error),
					new RegExp(`The message to ${dest} was not sent: Error - 403 Forbidden`),
				);
				assert.deepEqual(items[i].pairedItem, { item: i });
			}
		});

		test('without Continue On Fail: the node fails naming the failed recipients and listing the message ids already sent', async () => {
			const result = await send(input);
			assert.ok(result.error, 'the node should fail');
			assert.equal(sendRequests().length, 1);
			const sent = sandbox.control.messages();
			assert.equal(sent.length, 3);
			assert.match(result.error.message, /^2 of 5 SMS messages failed: /);
			assert.match(
				result.error.message,
				new RegExp(`${phone(2)} \\(item 1\\): Error - 403 Forbidden – Auth`),
			);
			assert.match(
				result.error.message,
				new RegExp(`${phone(4)} \\(item 3\\): Error - 403 Forbidden – Auth`),
			);
			const description = String(result.error.description);
			for (const message of sent) {
				assert.ok(
					description.includes(`${message.message_id} → ${message.dest}`),
					`the description lists message ${message.message_id}: ${description}`,
				);
			}
			assert.match(description, /Already sent \(3, do not send them again\)/);
			const data = (result.error.context as IDataObject).data as IDataObject;
			assert.deepEqual(
				(data.sent as IDataObject[]).map((s) => s.message_id),
				sent.map((m) => m.message_id),
			);
			assert.deepEqual(
				(data.failed as IDataObject[]).map((f) => [f.dest, f.inputItem]),
				[
					[phone(2), 1],
					[phone(4), 3],
				],
			);
		});

		test('without Continue On Fail the run stops after the batch with a failure: later batches are not sent, and the error says so', async () => {
			const result = await send(input, { options: { batchSize: 2 } });
			assert.ok(result.error);
			assert.equal(sendRequests().length, 1, 'only the first batch was sent');
			assert.match(
				result.error.message,
				new RegExp(`^1 of 5 SMS messages failed: ${phone(2)} \\(item 1\\)`),
			);
			assert.match(
				String(result.error.description),
				/Not sent \(3\): the messages of the later batches, items 2-4/,
			);
			const data = (result.error.context as IDataObject).data as IDataObject;
			assert.deepEqual(
				(data.notSent as IDataObject[]).map((n) => n.dest),
				[phone(3), phone(4), phone(5)],
			);
		});

		test("an unapproved (unverified) sender fails every message with the service's authorization error", async () => {
			const result = await send(
				[{ to: phone(1) }, { to: phone(2) }],
				{ sender: '0527654321' },
				{ continueOnFail: true },
			);
			const items = result.items(NODE);
			assert.equal(items.length, 2);
			for (const item of items) {
				assert.equal(item.json.errorCode, 'Error - 403 Forbidden');
				assert.match(String(item.json.errorDescription), /not verified/);
			}
		});
	});

	describe('missing token: the service answers each message with Error - 403 Forbidden', () => {
		test('without Continue On Fail the error names the recipients and points to the Access Token', async () => {
			const result = await send(
				[{ to: phone(1) }, { to: phone(2) }],
				{},
				{ credentials: { accessToken: '' } },
			);
			assert.ok(result.error);
			const [request] = sendRequests();
			assert.equal(
				request.headers.authorization?.trim() ?? '',
				'Bearer',
				'the request carried no token',
			);
			assert.match(result.error.message, /^2 of 2 SMS messages failed/);
			assert.match(
				result.error.message,
				new RegExp(
					`${phone(1)} \\(item 0\\): Error - 403 Forbidden – Missing mandatory fields: token`,
				),
			);
			assert.match(String(result.error.description), /check the credential's Access Token/);
			assert.match(
				String(result.error.description),
				/No message of this run was confirmed as sent/,
			);
			assert.equal(sandbox.control.messages().length, 0);
		});

		test("with Continue On Fail every recipient is an error item with the service's status and description", async () => {
			const result = await send(
				[{ to: phone(1) }, { to: phone(2) }],
				{},
				{ credentials: { accessToken: '' }, continueOnFail: true },
			);
			assert.equal(result.error, undefined);
			const items = result.items(NODE);
			assert.deepEqual(
				items.map((i) => [
					(i.json.errorDetails as IDataObject).recipient,
					i.json.errorCode,
					i.pairedItem,
				]),
				[
					[phone(1), 'Error - 403 Forbidden', { item: 0 }],
					[phone(2), 'Error - 403 Forbidden', { item: 1 }],
				],
			);
			assert.match(String(items[0].json.errorDescription), /\btoken\b/);
		});
	});
});
