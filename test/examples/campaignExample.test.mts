/**
 * examples/sms-campaign-skip-opted-out.json, run as it is in the file on n8n's engine against the
 * sandbox, its Data table nodes' rows pinned on stand-ins of the same names (dev/demo/campaign.mts;
 * `npm run e2e` runs the file in a real n8n with real Data Tables: dev/e2e/lib/campaigns.mts): Send
 * Once per Number is on, a person listed twice gets one message, every spelling of an opted-out
 * number is skipped, and what cannot be sent comes out of Send's error output, paired to its row,
 * with the fields the recorder writes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { campaignNodes, runCampaignExample } from '../../dev/demo/campaign.mts';
import { loadExample } from '../../dev/demo/workflows.mts';
import { startSandbox, type Sandbox } from '../../dev/sandbox/index.mts';

const EXAMPLE = loadExample('sms-campaign-skip-opted-out.json');

describe('examples/sms-campaign-skip-opted-out.json', () => {
	let sandbox: Sandbox;
	before(async () => {
		sandbox = await startSandbox();
	});
	after(async () => await sandbox.close());

	const run = async (optOutRows: IDataObject[], recipients: IDataObject[]) => {
		sandbox.control.reset();
		return await runCampaignExample({
			credentials: {
				virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
			},
			optOutRows,
			recipients,
		});
	};
	const sentTo = () =>
		sandbox.control
			.requests({ operation: 'send_sms' })
			.flatMap((request) => (request.body as IDataObject[]).map((message) => message.dest));

	test("Send Once per Number is on, and Send's error output leads to a Data table insert of each failed row", () => {
		const { send, recorder } = campaignNodes(EXAMPLE);
		assert.equal((send.parameters.options as IDataObject).sendOncePerNumber, true);
		assert.equal(send.onError, 'continueErrorOutput');
		assert.deepEqual(EXAMPLE.connections[send.name].main[0], [], 'the Summary goes nowhere');
		assert.deepEqual(recorder.parameters.dataTableId, {
			__rl: true,
			mode: 'name',
			value: 'SMS campaign failures',
		});
		assert.deepEqual((recorder.parameters.columns as IDataObject).value, {
			phone: '={{ $json.phone }}',
			error: '={{ $json.error }}',
			failedAt: '={{ $now.toISO() }}',
		});
	});

	test('opted-out numbers in other spellings skipped, a person listed twice texted once, a bad row on the error output', async () => {
		const campaign = await run(
			[{ phone: 541110010 }, { phone: '٠٥٤-١١١-٠٠٢٠' }, { phone: null }],
			[
				{ phone: '+972 54-111-0010' },
				{ phone: '0521234567' },
				{ phone: '054-111-0020' },
				{ phone: 'N/A' },
				{ phone: '052-123-4567' },
				{ phone: '0541110010' },
			],
		);
		assert.deepEqual(sentTo(), ['0521234567']);
		const { summary } = campaign;
		assert.deepEqual(
			[summary.recipients, summary.notSent, summary.failedItems, summary.failed],
			[5, { optedOut: 3, sameNumber: 1, outsideWindow: 0 }, 1, 0],
		);
		assert.equal(Number(summary.sent) + Number(summary.scheduled), 1);
		assert.deepEqual(
			campaign.failedRows.map((row) => [row.pairedItem, row.json.phone]),
			[[{ item: 3 }, 'N/A']],
		);
		assert.match(String(campaign.failedRows[0].json.error), /^To: "N\/A" has letters/);
		const recorded = campaign.run.items(campaignNodes(EXAMPLE).recorder.name);
		assert.deepEqual(
			recorded.map((row) => row.json.phone),
			['N/A'],
			'the recorder gets the failed row',
		);
	});

	test("an empty opt-out table (Always Output Data's one empty item) skips no one", async () => {
		const campaign = await run([], [{ phone: '0541110010' }, { phone: '0541110011' }]);
		assert.deepEqual(sentTo(), ['0541110010', '0541110011']);
		assert.deepEqual(campaign.failedRows, []);
	});

	test('an opt-out row that cannot be one number: nothing sent, every recipient row recorded with why', async () => {
		const campaign = await run(
			[{ phone: '0541110010' }, { phone: 'call me' }],
			[{ phone: '0521234567' }, { phone: '0537654321' }],
		);
		assert.deepEqual(sentTo(), []);
		assert.deepEqual(campaign.summary, {});
		assert.deepEqual(
			campaign.failedRows.map((row) => [row.pairedItem, row.json.phone, row.json.error]),
			[0, 1].map((item) => [
				{ item },
				item === 0 ? '0521234567' : '0537654321',
				'Skip Opted-Out Numbers: item 1 of "Opted-out numbers" (field "phone") is not one phone number: "call me" has letters ("call")',
			]),
		);
	});
});
