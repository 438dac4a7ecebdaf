/**
 * Rules only the Bulk SMS node uses: the SMS service's limits (docs/api/sms-service.md, "Limits"),
 * held as data, and what a sender is.
 */
import { phoneDigits } from '../shared/phones';

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
} as const;

/** What an SMS sender value is, by the spec's sender rules (Limits: text sender, phone sender). */
export type SmsSenderKind = 'text' | 'phone' | 'speedDial';

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
		'a phone sender must be a phone number (digits; spaces, dashes, dots, brackets and a leading + are removed) or a speed dial *XXXX',
} as const;
