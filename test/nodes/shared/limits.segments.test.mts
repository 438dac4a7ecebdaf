import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { estimateSegments } from '../../../nodes/shared/limits.ts';

// The boundaries of each encoding (160/161 and 306/307 for GSM-7's 160 and 153, 70/71 and 134/135
// for UCS-2's 70 and 67) pin the GSM standard's limits.
describe('SMS segment estimate', () => {
	const cases: Array<[string, string, 'GSM-7' | 'UCS-2', number]> = [
		['160 GSM-7 characters fit in one segment', 'a'.repeat(160), 'GSM-7', 1],
		['161 GSM-7 characters take two segments of 153', 'a'.repeat(161), 'GSM-7', 2],
		['306 GSM-7 characters: exactly two segments', 'a'.repeat(306), 'GSM-7', 2],
		['307 GSM-7 characters: three segments', 'a'.repeat(307), 'GSM-7', 3],
		['GSM-7 extension characters count double: 80 × € = 160 septets', '€'.repeat(80), 'GSM-7', 1],
		['81 × € = 162 septets: two segments', '€'.repeat(81), 'GSM-7', 2],
		[
			'an extension character never straddles two segments',
			`${'a'.repeat(152)}{${'a'.repeat(8)}`,
			'GSM-7',
			2,
		],
		['Latin accents of the GSM alphabet stay GSM-7', 'Café à Genève: déjà vu', 'GSM-7', 1],
		['Hebrew needs UCS-2', 'שלום', 'UCS-2', 1],
		['70 UCS-2 characters fit in one segment', 'ש'.repeat(70), 'UCS-2', 1],
		['71 UCS-2 characters take two segments of 67', 'ש'.repeat(71), 'UCS-2', 2],
		['134 UCS-2 characters: two segments', 'ש'.repeat(134), 'UCS-2', 2],
		['135 UCS-2 characters: three segments', 'ש'.repeat(135), 'UCS-2', 3],
		['one Hebrew letter makes the whole Latin text UCS-2', `${'a'.repeat(100)}ש`, 'UCS-2', 2],
		['an emoji takes two UCS-2 units', '😀'.repeat(35), 'UCS-2', 1],
		['36 emoji = 72 units: two segments', '😀'.repeat(36), 'UCS-2', 2],
		[
			'a character outside GSM-7 (ç lower case is not in the basic set) means UCS-2',
			'ç',
			'UCS-2',
			1,
		],
	];
	for (const [name, text, encoding, segments] of cases) {
		test(name, () => assert.deepEqual(estimateSegments(text), { encoding, segments }));
	}
});
