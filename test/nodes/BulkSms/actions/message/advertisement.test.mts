/**
 * Send → Campaign → Advertisement: what the service receives, what each output item says was
 * sent, the length and the SMS parts counted on the text that goes out, and a missing advertiser
 * or contact refused before any request.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { failure, jsons, sandboxPerFile } from '../../../../../dev/harness/nodeTest.mts';
import { NODE, runCampaign, sentMessages } from './campaignRun.mts';

const sandbox = sandboxPerFile();

const details = (extra: Record<string, string> = {}) => ({
	details: { advertiser: 'Cafe Dizengoff', contact: '03-5551234', ...extra },
});

describe('Bulk SMS → Send → Campaign → Advertisement', () => {
	test('the service receives פרסומת, the message, the advertiser, the contact and how to refuse', async () => {
		const result = await runCampaign(sandbox, ['0541110010'], {
			campaign: { advertisement: details() },
		});
		const expected =
			'פרסומת: Spring sale: 20% off until Sunday\nCafe Dizengoff, 03-5551234\nלהסרה השיבו הסר';
		assert.deepEqual(
			sentMessages(sandbox).map((m) => m.message),
			[expected],
		);
		const [item] = jsons(result, NODE);
		assert.equal(item.message, expected);
		assert.equal(item.encoding, 'UCS-2');
		// 84 characters of UCS-2 (over 70): two parts, and two credits.
		assert.equal(item.segments, 2);
		assert.equal(item.estimatedCredits, 2);
	});

	test('a link, a link with the keyword, and a message already starting with פרסומת', async () => {
		await runCampaign(sandbox, ['0541110010'], {
			campaign: { advertisement: details({ keyword: '', link: 'https://ex.co/rm' }) },
		});
		await runCampaign(sandbox, ['0541110010'], {
			campaign: { advertisement: details({ keyword: 'STOP', link: 'https://ex.co/rm' }) },
		});
		await runCampaign(sandbox, ['0541110010'], {
			message: 'פרסומת: מבצע',
			campaign: { advertisement: details() },
		});
		assert.deepEqual(
			sentMessages(sandbox).map((m) => m.message),
			[
				'פרסומת: Spring sale: 20% off until Sunday\nCafe Dizengoff, 03-5551234\nלהסרה: https://ex.co/rm',
				'פרסומת: Spring sale: 20% off until Sunday\nCafe Dizengoff, 03-5551234\nלהסרה השיבו STOP או https://ex.co/rm',
				'פרסומת: מבצע\nCafe Dizengoff, 03-5551234\nלהסרה השיבו הסר',
			],
		);
	});

	for (const [field, extra, message] of [
		[
			'Advertiser Name',
			{ advertiser: ' ' },
			/^Advertiser Name: is required in an advertisement: the law requires the advertiser to be named/,
		],
		[
			'Contact Details',
			{ contact: '' },
			/^Contact Details: are required in an advertisement: the law requires the advertiser's contact details/,
		],
		[
			'both opt-out fields',
			{ keyword: '', link: '' },
			/^Opt-Out Reply Keyword: is empty, and so is Opt-Out Link: an advertisement must say how to refuse/,
		],
	] as const) {
		test(`no ${field}: refused before any request, an error item per input item under Continue On Fail`, async () => {
			const result = await runCampaign(
				sandbox,
				['0541110010', '0541110011'],
				{ campaign: { advertisement: details(extra) } },
				{ onError: 'continueRegularOutput' },
			);
			assert.equal(sentMessages(sandbox).length, 0);
			const items = result.items(NODE);
			assert.deepEqual(
				items.map((item) => item.pairedItem),
				[{ item: 0 }, { item: 1 }],
			);
			for (const item of items) assert.match(String(item.json.error), message);
			const failed = await runCampaign(sandbox, ['0541110010'], {
				campaign: { advertisement: details(extra) },
			});
			assert.match(String(failure(failed, NODE).message), message);
			assert.equal(sentMessages(sandbox).length, 0);
		});
	}

	test('the 600-character limit counts the added text: the message alone fits, the advertisement does not', async () => {
		const message = 'x'.repeat(560);
		const result = await runCampaign(
			sandbox,
			['0541110010'],
			{ message, campaign: { advertisement: details() } },
			{ onError: 'continueRegularOutput' },
		);
		assert.equal(sentMessages(sandbox).length, 0);
		const [item] = jsons(result, NODE);
		assert.match(
			String(item.error),
			/^Message: is 611 characters long with the advertisement.s added text, more than the 600/,
		);
	});
});
