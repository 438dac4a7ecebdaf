import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { workflowIssuesRefusal } from '../../../../../dev/harness/n8nCompat.mts';
import { nodeDescription, PASSWORD, producedText, userTest } from './userTest.mts';

const { sandbox, run, json, user, expr, requests, refused } = userTest();

describe('Virtual Number → User', () => {
	describe('Create', () => {
		test('sends set_user as a POST with every field, outputs the new user and never the password', async () => {
			const result = await run({
				operation: 'create',
				email: 'dana@example.com',
				password: PASSWORD,
				additionalFields: {
					user_login: 'dana',
					user_phone: '050-1234567',
					user_phone_sms: '0527654321',
				},
			});
			assert.equal(result.error, undefined, result.error?.message);
			const [request] = requests('set_user');
			assert.equal(request.method, 'POST');
			assert.deepEqual(
				request.query,
				{ service: 'set_user', format: 'json' },
				'the password stays out of the URL',
			);
			assert.deepEqual(request.body, {
				email: 'dana@example.com',
				password: PASSWORD,
				user_login: 'dana',
				user_phone: '0501234567',
				user_phone_sms: '0527654321',
			});
			const [output] = json(result);
			assert.equal(output.success, true);
			assert.equal(output.email, 'dana@example.com');
			assert.equal(output.user_login, 'dana');
			assert.equal(typeof output.user_id, 'number');
			assert.ok(!('password' in output));
			assert.ok(
				!JSON.stringify(result.run).includes(PASSWORD),
				'the password must not appear anywhere in the run',
			);
			assert.ok(!result.logs.join('\n').includes(PASSWORD), 'nor in a log line');
			const created = sandbox.control.users().find((u) => u.email === 'dana@example.com');
			assert.ok(created, 'the sandbox has the user');
			assert.equal(created.user_phone, '972501234567');
		});

		test('sends only email and password when no additional field is set', async () => {
			const result = await run({
				operation: 'create',
				email: 'min@example.com',
				password: PASSWORD,
			});
			assert.equal(result.error, undefined, result.error?.message);
			assert.deepEqual(requests('set_user')[0].body, {
				email: 'min@example.com',
				password: PASSWORD,
			});
			assert.equal(
				json(result)[0].user_login,
				'min',
				"the service's default login (from the email) is in the output",
			);
		});

		test('a password the service quotes back in its error is masked in the message, description and data', async () => {
			sandbox.control.injectFaults({
				kind: 'serviceError',
				operation: 'set_user',
				code: 7002,
				description: `the password ${PASSWORD} fails the policy`,
			});
			const result = await run({
				operation: 'create',
				email: 'dana@example.com',
				password: PASSWORD,
			});
			assert.ok(result.error);
			assert.match(
				result.error.message,
				/password is shorter than 8 characters or fails the password policy \(code 7002\)/,
			);
			assert.match(String(result.error.description), /the password \*+ fails the policy/);
			assert.ok(
				!producedText(result).includes(PASSWORD),
				'the password must not appear in the error or anything the node produced',
			);
		});

		test('with Continue On Fail, the error item does not carry the password either', async () => {
			sandbox.control.injectFaults({
				kind: 'serviceError',
				operation: 'set_user',
				code: 7002,
				description: `bad: ${PASSWORD}`,
			});
			const result = await run(
				{ operation: 'create', email: 'dana@example.com', password: PASSWORD },
				{ continueOnFail: true },
			);
			assert.equal(result.error, undefined);
			const [item] = json(result);
			assert.match(String(item.error), /code 7002/);
			assert.ok(!JSON.stringify(item).includes(PASSWORD));
			assert.ok(!producedText(result).includes(PASSWORD));
		});

		test('a password shorter than 8 characters is refused before any request, without quoting it', async () => {
			const result = await refused(
				{ operation: 'create', email: 'a@example.com', password: 'Ab1-xyz' },
				/Password: must be at least 8 characters/,
			);
			assert.ok(!producedText(result).includes('Ab1-xyz'));
		});

		test('an empty, invalid or over-long email is refused before any request', async () => {
			await refused(
				{ operation: 'create', email: expr(''), password: PASSWORD },
				/Email: is required/,
			);
			await refused(
				{ operation: 'create', email: 'not-an-email', password: PASSWORD },
				/Email: must be an email address/,
			);
			await refused(
				{ operation: 'create', email: `${'a'.repeat(90)}@example.com`, password: PASSWORD },
				/Email: must be at most 99 characters/,
			);
		});

		test("n8n's own parameter checks also stop a missing email or a typed user ID that is not a number", async () => {
			sandbox.control.clearRequests();
			// (n8n 1.x refuses the run too, without naming the issue)
			const noEmail = await workflowIssuesRefusal(/Parameter "Email" is required/);
			const notANumber = await workflowIssuesRefusal(/A user ID is a whole number/);
			await assert.rejects(run({ operation: 'create', email: '', password: PASSWORD }), noEmail);
			await assert.rejects(run({ operation: 'get', userId: user('abc') }), notANumber);
			assert.equal(requests().length, 0);
		});

		test('a phone with letters is refused before any request', async () => {
			await refused(
				{
					operation: 'create',
					email: 'a@example.com',
					password: PASSWORD,
					additionalFields: { user_phone: 'call me' },
				},
				/Phone: must be a phone number/,
			);
		});

		test('the Password field is a password field', async () => {
			const properties = (await nodeDescription()).properties;
			const create = properties.find(
				(p) => p.name === 'password' && p.displayOptions?.show?.operation?.includes('create'),
			);
			assert.equal(create?.typeOptions?.password, true);
			const update = properties.find(
				(p) => p.name === 'updateFields' && p.displayOptions?.show?.resource?.includes('user'),
			);
			const updatePassword = update?.options?.find((o) => 'name' in o && o.name === 'password') as {
				typeOptions?: IDataObject;
			};
			assert.equal(updatePassword?.typeOptions?.password, true);
		});
	});
});
