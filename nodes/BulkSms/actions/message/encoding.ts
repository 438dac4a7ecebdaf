/**
 * Estimate of how a message is split into SMS segments. The SMS spec shows no message length
 * limit and no charging rule beyond "every recipient counts", so this is the GSM standard
 * (3GPP TS 23.038 / 23.040), given to users as an estimate: GSM-7 holds 160 characters in one
 * segment and 153 per segment when split; anything outside the GSM-7 alphabet (Hebrew, emoji…)
 * needs UCS-2, 70 characters in one segment and 67 per segment when split.
 */

export const SMS_ENCODING = {
	gsm7: { name: 'GSM-7', single: 160, perSegment: 153 },
	ucs2: { name: 'UCS-2', single: 70, perSegment: 67 },
} as const;

export type SmsEncodingName = (typeof SMS_ENCODING)[keyof typeof SMS_ENCODING]['name'];

/** GSM 03.38 basic alphabet: one septet each. */
const GSM_BASIC = new Set(
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);

/** GSM 03.38 extension table: an escape plus the character, two septets each. */
const GSM_EXTENSION = new Set('^{}\\[~]|€\f');

export interface SegmentEstimate {
	encoding: SmsEncodingName;
	segments: number;
}

/** Segments a message is expected to take. A character is never split across two segments. */
export function estimateSegments(text: string): SegmentEstimate {
	const characters = Array.from(text);
	const gsm = characters.every((ch) => GSM_BASIC.has(ch) || GSM_EXTENSION.has(ch));
	if (gsm) {
		const costs = characters.map((ch) => (GSM_EXTENSION.has(ch) ? 2 : 1));
		return { encoding: SMS_ENCODING.gsm7.name, segments: pack(costs, SMS_ENCODING.gsm7) };
	}
	// UCS-2 counts UTF-16 code units: a character outside the basic plane (most emoji) takes two.
	const costs = characters.map((ch) => ch.length);
	return { encoding: SMS_ENCODING.ucs2.name, segments: pack(costs, SMS_ENCODING.ucs2) };
}

function pack(costs: number[], limits: { single: number; perSegment: number }): number {
	const total = costs.reduce((sum, cost) => sum + cost, 0);
	if (total <= limits.single) return 1;
	let segments = 1;
	let used = 0;
	for (const cost of costs) {
		if (used + cost > limits.perSegment) {
			segments++;
			used = 0;
		}
		used += cost;
	}
	return segments;
}
