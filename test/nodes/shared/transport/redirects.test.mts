/**
 * Issue 17 §4: no request of the package sends the access token to another address or replays a
 * body there. The sandbox answers with a redirect (301, 302, 307, 308) to a second listener that
 * records whatever reaches it; every kind of request of both nodes, the trigger's registration and
 * both credential tests must leave it empty and fail with an error that names the status and the
 * target's origin (never its path or query string).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, testCredential } from '../../../../dev/harness/engine.mts';
import { TriggerHost, selectedNumbers } from '../../../../dev/harness/trigger.mts';
import { startSandbox, type Sandbox } from '../../../../dev/sandbox/index.mts';
import { makeWav } from '../../../../dev/sandbox/audio.mts';

const STATUSES = [301, 302, 307, 308] as const;
const NUMBER = '0722000100';
const rl = (value: string) => ({ __rl: true, mode: 'id', value });

interface Kind {
	label: string;
	type: 'virtualNumber' | 'bulkSms';
	server: 'vn' | 'sms';
	operation: string;
	parameters: (sandbox: Sandbox) => IDataObject;
	input?: INodeExecutionData[];
}

const wavItem: INodeExecutionData = {
	json: {},
	binary: {
		data: {
			data: makeWav(2000, 440).toString('base64'),
			mimeType: 'audio/wav',
			fileName: 'moved.wav',
		},
	},
};

const KINDS: Kind[] = [
	{
		label: 'a read (GET)',
		type: 'virtualNumber',
		server: 'vn',
		operation: 'get_virtualnum',
		parameters: () => ({ resource: 'virtualnum', operation: 'get', virtualnum: rl(NUMBER) }),
	},
	{
		label: 'a write (form POST)',
		type: 'virtualNumber',
		server: 'vn',
		operation: 'create_virtualnum_call',
		parameters: () => ({
			resource: 'call',
			operation: 'clickToCall',
			virtualnum: rl(NUMBER),
			destination: '0501234567',
		}),
	},
	{
		label: 'an upload (multipart POST)',
		type: 'virtualNumber',
		server: 'vn',
		operation: 'upload_prompt',
		parameters: () => ({ resource: 'prompt', operation: 'upload', binaryPropertyName: 'data' }),
		input: [wavItem],
	},
	{
		label: 'a recording download (stream)',
		type: 'virtualNumber',
		server: 'vn',
		operation: 'get_record_by_call_uuid',
		parameters: (sandbox) => ({
			resource: 'cdr',
			operation: 'downloadRecording',
			callUuid: sandbox.control.cdrs({ hasRecording: true })[0].cdr_uniqueid,
		}),
	},
	{
		label: 'a prompt download',
		type: 'virtualNumber',
		server: 'vn',
		operation: 'download_prompt',
		parameters: () => ({
			resource: 'prompt',
			operation: 'download',
			promptName: { __rl: true, mode: 'name', value: 'welcome' },
		}),
	},
	{
		label: 'an SMS batch (JSON POST)',
		type: 'bulkSms',
		server: 'sms',
		operation: 'send_sms',
		parameters: () => ({
			resource: 'message',
			operation: 'send',
			sender: rl('VirtualNum'),
			to: '0501234567',
			message: 'Moved?',
		}),
	},
	{
		label: 'an SMS sender operation',
		type: 'bulkSms',
		server: 'sms',
		operation: 'get_sender_list',
		parameters: () => ({ resource: 'sender', operation: 'list' }),
	},
	{
		label: 'the SMS credit',
		type: 'bulkSms',
		server: 'sms',
		operation: 'credit',
		parameters: () => ({ resource: 'credit', operation: 'getBalance' }),
	},
];

describe(
	'Redirects are never followed: no token, no body to another address',
	{ concurrency: 1 },
	() => {
		let sandbox: Sandbox;
		let host: TriggerHost;
		before(async () => {
			sandbox = await startSandbox();
			host = await TriggerHost.start();
		});
		after(async () => {
			await host.close();
			await sandbox.close();
		});
		beforeEach(() => {
			sandbox.control.reset();
			sandbox.redirectTarget.clear();
		});

		/** The error names the status and the target's origin, never its path or query string. */
		function assertRedirectError(text: string, status: number) {
			assert.match(
				text,
				new RegExp(
					`redirect \\(HTTP ${status}\\) to ${sandbox.redirectTarget.url.replace(/[.]/g, '\\.')}`,
				),
			);
			assert.match(text, /Base URL/);
			assert.doesNotMatch(text, /redirect-query-secret|moved\/here/);
		}

		const nothingReachedTheTarget = () =>
			assert.deepEqual(
				sandbox.redirectTarget.requests(),
				[],
				'the redirect target received nothing',
			);

		for (const kind of KINDS) {
			for (const status of STATUSES) {
				test(`${kind.label}, HTTP ${status}: an error, and nothing reaches the target`, async () => {
					sandbox.control.injectFaults({
						kind: 'redirect',
						status,
						server: kind.server,
						operation: kind.operation,
					});
					const result = await runWorkflow({
						nodes: [{ name: 'Node', type: kind.type, parameters: kind.parameters(sandbox) }],
						input: kind.input,
						credentials: {
							virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
							virtualnumSmsApi: {
								baseUrl: sandbox.smsUrl,
								accessToken: sandbox.tokens.sms,
								accountToken: sandbox.tokens.smsAccount,
							},
						},
					});
					assert.ok(result.error, 'the node fails');
					assertRedirectError(`${result.error.message}\n${result.error.description ?? ''}`, status);
					nothingReachedTheTarget();
					assert.equal(
						sandbox.control.requests({ operation: kind.operation }).length,
						1,
						'asked once, not again',
					);
				});
			}
		}

		for (const status of STATUSES) {
			test(`the trigger's registration (update_virtualnum), HTTP ${status}: the activation fails, and nothing reaches the target`, async () => {
				sandbox.control.injectFaults({
					kind: 'redirect',
					status,
					server: 'vn',
					operation: 'update_virtualnum',
				});
				const trigger = host.add({
					parameters: {
						events: ['callEnded'],
						numbers: 'selected',
						virtualnums: selectedNumbers([NUMBER]),
					},
					credentials: {
						virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn },
					},
				});
				await assert.rejects(trigger.activate(), (error: Error & { description?: string }) => {
					assertRedirectError(`${error.message}\n${error.description ?? ''}`, status);
					return true;
				});
				nothingReachedTheTarget();
			});

			const credentialTests = [
				{
					label: 'Virtual Number',
					node: 'virtualNumber',
					type: 'virtualnumApi',
					server: 'vn',
					operation: 'test',
					url: () => sandbox.vnUrl,
					token: () => sandbox.tokens.vn,
				},
				{
					label: 'Bulk SMS',
					node: 'bulkSms',
					type: 'virtualnumSmsApi',
					server: 'sms',
					operation: 'get_sender_list',
					url: () => sandbox.smsUrl,
					token: () => sandbox.tokens.sms,
				},
			] as const;
			for (const credential of credentialTests) {
				test(`the ${credential.label} credential test, HTTP ${status}`, async () => {
					sandbox.control.injectFaults({
						kind: 'redirect',
						status,
						server: credential.server,
						operation: credential.operation,
					});
					const result = await testCredential(credential.node, credential.type, {
						baseUrl: credential.url(),
						accessToken: credential.token(),
					});
					assert.equal(result.status, 'Error');
					assertRedirectError(result.message, status);
					nothingReachedTheTarget();
				});
			}
		}

		test('the target records what reaches it (the sweep is not empty by construction)', async () => {
			await fetch(`${sandbox.redirectTarget.url}/api/?service=test`, {
				method: 'POST',
				headers: { authorization: 'Bearer x' },
				body: 'abc',
			});
			const [received] = sandbox.redirectTarget.requests();
			assert.equal(received.headers.authorization, 'Bearer x');
			assert.equal(received.bodyBytes, 3);
		});
	},
);
