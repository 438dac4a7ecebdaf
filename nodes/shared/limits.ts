/**
 * The services' limits, held as data: the rows of the "Limits" tables of docs/api/sms-service.md
 * and docs/api/virtual-number-service.md, and the package's own ceilings where a contract shows
 * none (each says so). The limits shared with the trigger (callback URL, prompt file) are
 * `LIMITS` in checks.ts, the phone digits `PHONE_LIMITS` in phones.ts.
 */
import { phoneDigits } from './phones';

// ---- SMS service -----------------------------------------------------------------------------

export const SMS_LIMITS = {
	textSender: { minLength: 3, maxLength: 11, pattern: /^[A-Za-z][A-Za-z0-9_-]{2,10}$/ },
	phoneSender: { pattern: /^(\d+|\*\d{4})$/ },
	otpCode: { pattern: /^\d{6}$/ },
	otpTypes: ['sms', 'call', 'distributor'],
	senderSearch: { pattern: /^[A-Za-z0-9]*$/ },
	// The spec shows no maximum batch size; 1000 is this package's ceiling (docs/bulk-sms-node.md).
	batchSize: { min: 1, max: 1000, default: 100 },
	// The spec shows no request rate: one batch at a time unless the user asks for more, at most 8.
	batchesInFlight: { min: 1, max: 8, default: 1 },
	// The provider's public help pages: at most 600 characters a message. Accounts with another
	// limit set theirs (Maximum Message Length); 10,000 is this package's ceiling.
	messageLength: { default: 600, max: 10000 },
} as const;

/**
 * Send's waits for the SMS service's rate limit (no input check): a batch answered HTTP 429 is sent
 * again after Retry-After, one wait of at most 60 s, at most 120 s in all for a run
 * (docs/robustness.md says why).
 */
export const SMS_RATE_LIMIT = { maxWaitSec: 60, maxTotalWaitSec: 120 } as const;

/** What an SMS sender value is, by the spec's sender rules (Limits: text sender, phone sender). */
type SmsSenderKind = 'text' | 'phone' | 'speedDial';

/**
 * Normalizes a sender: a text sender as is, a phone number to digits only ("+972-50-123 4567" →
 * "972501234567"), a speed dial `*XXXX` as is. Undefined when it fits none of the rules.
 */
export function normalizeSmsSender(
	raw: string,
): { kind: SmsSenderKind; value: string } | undefined {
	const text = raw.trim();
	if (/^\*\d{4}$/.test(text)) return { kind: 'speedDial', value: text };
	// A text sender starts with a Latin letter, so anything starting with a digit, + or ( is a phone.
	if (/^[+\d(]/.test(text)) {
		const digits = phoneDigits(text);
		return digits && SMS_LIMITS.phoneSender.pattern.test(digits)
			? { kind: 'phone', value: digits }
			: undefined;
	}
	return SMS_LIMITS.textSender.pattern.test(text) ? { kind: 'text', value: text } : undefined;
}

/** The rules of a sender, in the user's words, for error messages and hints. */
export const SMS_SENDER_RULES = {
	text: 'a text sender must be 3-11 characters, start with a Latin letter and contain only a-z A-Z 0-9 _ -',
	phone:
		'a phone sender must be a phone number (digits; spaces, dashes, dots, brackets ' +
		'and a leading + are removed) or a speed dial *XXXX',
} as const;

/**
 * How a message is split into SMS segments. The SMS contract shows no message length limit and no
 * charging rule beyond "every recipient counts", so this is the GSM standard (3GPP TS 23.038 /
 * 23.040), given to users as an estimate: GSM-7 holds 160 characters in one segment and 153 per
 * segment when split; anything outside the GSM-7 alphabet (Hebrew, emoji…) needs UCS-2, 70 in one
 * segment and 67 per segment when split.
 */
const SMS_ENCODING = {
	gsm7: { name: 'GSM-7', single: 160, perSegment: 153 },
	ucs2: { name: 'UCS-2', single: 70, perSegment: 67 },
} as const;

type SmsEncodingName = (typeof SMS_ENCODING)[keyof typeof SMS_ENCODING]['name'];

/** GSM 03.38 basic alphabet: one septet each. */
const GSM_BASIC = new Set(
	'@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡' +
		'ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
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

// ---- Virtual number service ------------------------------------------------------------------

/** The rows only the Virtual Number node uses. */
export const VN_LIMITS = {
	/** Request run time: up to 10 minutes (heavy cdr_query, recordings from the archive). */
	requestRunTimeMs: 10 * 60 * 1000,
	// Virtual number settings.
	description: { maxLength: 199 },
	callDestinationPhone: { maxLength: 150 },
	privateField: { maxLength: 254, count: 10 },
	dialTimeoutInSec: { min: 1, max: 180 },
	recordPercentage: { min: 0, max: 100 },
	workingHours: { length: 168 },
	availableAmount: { min: 1, max: 50, default: 5 },
	// Call records and calls.
	cdrSql: { maxBytes: 8192 },
	cdrSubuniqueRows: { max: 2000 },
	cdrTotacSec: { min: 1, max: 3599 },
	click2callExpireDays: { min: 1, default: 365 },
	// Blacklist and users.
	blacklistNote: { maxLength: 149 },
	userEmail: { maxLength: 99 },
	userPassword: { minLength: 8 },
	userPhone: { minLength: 6 },
	accessLogRows: { max: 1000 },
} as const;
