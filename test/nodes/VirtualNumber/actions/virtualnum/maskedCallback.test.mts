/**
 * A number's callback URL never shows its secrets: a Virtual Number Trigger's URL carries its Secret
 * (`secret=`), with which anyone could forge Call Started and Call Ended, and the URL it replaced may
 * carry a CRM's token. Every operation that outputs a number's settings masks them, in every node
 * version; Update takes a URL given back as shown (mapped from Get) as "keep the number's URL" and
 * never writes the masked text. Under both readings of update_virtualnum.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { runWorkflow } from '../../../../../dev/harness/engine.mts';
import { startSandbox, type Sandbox } from '../../../../../dev/sandbox/index.mts';
import { expr, failure, jsons, rl, vnRequests, vnRunner } from '../../vnRun.mts';

let sandbox: Sandbox;
const run = vnRunner(() => sandbox);

/** A number of the "Google" tag (tag 3 of the sandbox's seed). */
const NUMBER = '0722000100';
const SECRET = 'TopSecret77';
const CRM_TOKEN = 'CrmToken55';
const CRM = `https://crm.example.com/hook?token=${CRM_TOKEN}`;
const WEBHOOK = 'https://n8n.example.com/webhook/0f1e2d3c-4b5a-4978-8091-a2b3c4d5e6f7/webhook';
/** The URL a trigger registers: its Secret, its mark, and the CRM URL it replaced. */
const TRIGGER_URL = `${WEBHOOK}?secret=${SECRET}&vnt=live&vnt_prev=3${encodeURIComponent(CRM)}`;
const SHOWN_TRIGGER_URL =
	`${WEBHOOK}?secret=********&vnt=live&vnt_prev=3` +
	`${encodeURIComponent('https://crm.example.com/hook?token=')}********`;
const SHOWN_CRM = 'https://crm.example.com/hook?token=********';
const SECRETS = new RegExp(`${SECRET}|${CRM_TOKEN}`);

const READINGS = {
	'only the values sent change': [],
	'the whole record is replaced': ['update-replaces'],
} as const;

const seedUrl = (url: string) =>
	sandbox.control.seed({
		virtualnum: { virtualnum: NUMBER, callback_url: url, callback_url_option: 3 },
	});
const body = (request: { body: unknown }) => request.body as Record<string, string>;
const VN = 'n8n-nodes-virtualnum.virtualNumber';
const CREDENTIAL = { virtualnumApi: { id: 'vn', name: 'Virtual Number' } };

/** Get → Update, as a user maps a number read by Get into Update's fields (both at `typeVersion`). */
async function getThenUpdate(updateFields: IDataObject, typeVersion = 1.3) {
	return await runWorkflow({
		nodes: [
			{
				name: 'Get',
				type: VN,
				typeVersion,
				parameters: { resource: 'virtualnum', operation: 'get', virtualnum: rl(NUMBER) },
				credentials: CREDENTIAL,
			},
			{
				name: 'Update',
				type: VN,
				typeVersion,
				parameters: {
					resource: 'virtualnum',
					operation: 'update',
					virtualnum: rl(NUMBER),
					updateFields,
				},
				credentials: CREDENTIAL,
			},
		],
		connections: [['Get', 'Update']],
		credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
	});
}

const outputOf = (result: Awaited<ReturnType<typeof getThenUpdate>>, name: string) => {
	assert.equal(result.error, undefined, result.error?.message);
	return result.items(name).map((item) => item.json);
};

for (const [reading, behaviours] of Object.entries(READINGS)) {
	describe(`A number's callback URL shows no secret, ${reading}`, () => {
		before(async () => {
			sandbox = await startSandbox({ profile: 'contract', behaviours: [...behaviours] });
		});
		after(async () => await sandbox.close());
		beforeEach(() => {
			sandbox.control.reset();
			seedUrl(TRIGGER_URL);
			sandbox.control.clearRequests();
		});

		test('Get, Get Many (whole and filtered by the URL) and Tag → Get Member Records mask it', async () => {
			const get = jsons(
				await run({ resource: 'virtualnum', operation: 'get', virtualnum: rl(NUMBER) }),
			);
			assert.equal(get[0].callback_url, SHOWN_TRIGGER_URL);
			assert.equal(get[0].callback_url_option, 3);
			const all = jsons(
				await run({ resource: 'virtualnum', operation: 'getAll', status: 'any', returnAll: true }),
			);
			assert.equal(all.find((row) => row.virtualnum === NUMBER)?.callback_url, SHOWN_TRIGGER_URL);
			const filtered = jsons(
				await run({
					resource: 'virtualnum',
					operation: 'getAll',
					filterBy: 'field',
					filterField: 'callback_url',
					filterOperator: 'LIKE',
					filterValue: '%vnt=live%',
				}),
			);
			assert.deepEqual(
				filtered.map((row) => [row.virtualnum, row.callback_url]),
				[[NUMBER, SHOWN_TRIGGER_URL]],
			);
			const members = jsons(
				await run({ resource: 'tag', operation: 'getMemberRecords', tagId: rl('3', 'id') }),
			);
			assert.equal(
				members.find((row) => row.virtualnum === NUMBER)?.callback_url,
				SHOWN_TRIGGER_URL,
			);
			assert.doesNotMatch(JSON.stringify([get, all, filtered, members]), SECRETS);
			assert.equal(sandbox.control.virtualnum(NUMBER)!.callback_url, TRIGGER_URL, 'read only');
		});

		test('Update masks it in every version (the answer of 1 and 1.1, the number read again of 1.2 on)', async () => {
			for (const typeVersion of [1, 1.1, 1.2, 1.3]) {
				const [item] = jsons(
					await run(
						{
							resource: 'virtualnum',
							operation: 'update',
							virtualnum: rl(NUMBER),
							updateFields: { description: `Desk ${typeVersion}` },
						},
						{ typeVersion },
					),
				);
				assert.equal(item.description, `Desk ${typeVersion}`);
				// Versions 1 and 1.1 output the write's answer: where the service replaces the record,
				// the unsent URL is cleared there (then put back).
				const cleared = typeVersion < 1.2 && behaviours.length > 0;
				assert.equal(item.callback_url, cleared ? '' : SHOWN_TRIGGER_URL, `version ${typeVersion}`);
				assert.doesNotMatch(JSON.stringify(item), SECRETS);
			}
			assert.equal(sandbox.control.virtualnum(NUMBER)!.callback_url, TRIGGER_URL);
		});

		test('Create masks the URL it was given in its output; the service gets it whole', async () => {
			const [item] = jsons(
				await run({
					resource: 'virtualnum',
					operation: 'create',
					description: 'New line',
					callDestinationPhone: '0501234567',
					allocation: 'auto',
					additionalFields: { callbackUrl: CRM },
				}),
			);
			assert.equal(item.callback_url, SHOWN_CRM);
			assert.equal(body(vnRequests(sandbox, 'create_virtualnum')[0]).callback_url, CRM);
			assert.equal(sandbox.control.virtualnum(String(item.virtualnum))!.callback_url, CRM);
		});

		test("Get → Update with the trigger's URL mapped back: the URL is not written and stays", async () => {
			const result = await getThenUpdate({
				callbackUrl: '={{ $json.callback_url }}',
				description: 'Renamed',
			});
			const [item] = outputOf(result, 'Update');
			const writes = vnRequests(sandbox, 'update_virtualnum').map(body);
			assert.equal(writes[0].description, 'Renamed');
			assert.equal(writes[0].callback_url, undefined, "a trigger's URL is never sent back");
			assert.ok(writes.every((write) => !String(write.callback_url ?? '').includes('********')));
			const number = sandbox.control.virtualnum(NUMBER)!;
			assert.equal(number.callback_url, TRIGGER_URL, 'the trigger still receives the calls');
			assert.equal(number.description, 'Renamed');
			assert.equal(item.callback_url, SHOWN_TRIGGER_URL);
			assert.doesNotMatch(JSON.stringify(result.run), SECRETS);
		});

		test("Get → Update with a CRM's URL mapped back: the URL as registered is sent with the change", async () => {
			seedUrl(CRM);
			sandbox.control.clearRequests();
			const [item] = outputOf(
				await getThenUpdate({ callbackUrl: '={{ $json.callback_url }}', email: 'a@example.com' }),
				'Update',
			);
			const [write] = vnRequests(sandbox, 'update_virtualnum').map(body);
			assert.equal(write.callback_url, CRM, 'the real URL, never the masked text');
			assert.equal(write.email, 'a@example.com');
			assert.equal(sandbox.control.virtualnum(NUMBER)!.callback_url, CRM);
			assert.equal(item.callback_url, SHOWN_CRM);
			assert.deepEqual(item.unexpectedChanges, []);
		});

		test('only the URL mapped back, nothing else: nothing is written', async () => {
			for (const typeVersion of [1, 1.3]) {
				sandbox.control.clearRequests();
				const [item] = outputOf(
					await getThenUpdate({ callbackUrl: '={{ $json.callback_url }}' }, typeVersion),
					'Update',
				);
				assert.deepEqual(vnRequests(sandbox, 'update_virtualnum'), []);
				assert.equal(item.callback_url, SHOWN_TRIGGER_URL);
			}
			assert.equal(sandbox.control.virtualnum(NUMBER)!.callback_url, TRIGGER_URL);
		});

		test('a changed URL is written as given', async () => {
			const changed = 'https://other.example.com/calls?token=NewToken99';
			const [item] = outputOf(await getThenUpdate({ callbackUrl: changed }), 'Update');
			const [write] = vnRequests(sandbox, 'update_virtualnum').map(body);
			assert.equal(write.callback_url, changed);
			assert.equal(sandbox.control.virtualnum(NUMBER)!.callback_url, changed);
			assert.equal(item.callback_url, 'https://other.example.com/calls?token=********');
		});

		test("a masked URL that is not the number's is refused before anything is written", async () => {
			const error = failure(
				await run({
					resource: 'virtualnum',
					operation: 'update',
					virtualnum: rl(NUMBER),
					updateFields: {
						callbackUrl: expr('https://crm.example.com/other?token=********'),
						description: 'Renamed',
					},
				}),
			);
			assert.match(error.message, /^Callback URL: holds a masked secret \(\*{8}\)/);
			assert.match(error.message, /enter the whole URL with its secret/);
			assert.deepEqual(vnRequests(sandbox, 'update_virtualnum'), []);
			assert.equal(sandbox.control.virtualnum(NUMBER)!.callback_url, TRIGGER_URL);
		});
	});
}
