// Small shared helpers: deterministic randomness, the services' date formats, phone normalisation.
import { createHash } from 'node:crypto';

/** mulberry32: tiny, fast and good enough to make seeded data look varied yet repeatable. */
export class Rng {
	private s: number;
	constructor(seed: number) {
		this.s = seed >>> 0;
	}
	next(): number {
		this.s = (this.s + 0x6d2b79f5) >>> 0;
		let t = this.s;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}
	/** Integer in [min, max]. */
	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}
	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}
	chance(p: number): boolean {
		return this.next() < p;
	}
	digits(n: number): string {
		let out = '';
		for (let i = 0; i < n; i++) out += String(Math.floor(this.next() * 10));
		return out;
	}
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `Y-m-d H:i:s` in the sandbox process's local time, like the services' MySQL datetimes. */
export function formatDateTime(date: Date): string {
	return (
		`${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
		`${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
	);
}

const offsetByHour = new Map<number, number>();

/**
 * formatDateTime(new Date(ms)) without a Date per call, for bulk seeding: the local offset is cached
 * per UTC quarter hour (offsets change on quarter hours) and the calendar date is computed arithmetically.
 */
export function formatLocalMs(ms: number): string {
	const hour = Math.floor(ms / 900000); // quarter hours: some zones shift by 30 or 45 minutes
	let offset = offsetByHour.get(hour);
	if (offset === undefined) {
		offset = -new Date(hour * 900000).getTimezoneOffset() * 60000;
		if (offsetByHour.size > 100000) offsetByHour.clear();
		offsetByHour.set(hour, offset);
	}
	const local = ms + offset;
	const days = Math.floor(local / 86400000);
	let secs = Math.floor((local - days * 86400000) / 1000);
	// civil-from-days (H. Hinnant)
	const z = days + 719468;
	const era = Math.floor(z / 146097);
	const doe = z - era * 146097;
	const yoe = Math.floor(
		(doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
	);
	const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
	const mp = Math.floor((5 * doy + 2) / 153);
	const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
	const m = mp < 10 ? mp + 3 : mp - 9;
	const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
	const h = Math.floor(secs / 3600);
	secs -= h * 3600;
	const mi = Math.floor(secs / 60);
	return `${y}-${pad(m)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(secs - mi * 60)}`;
}

/** Strict `Y-m-d H:i:s` parser: rejects impossible dates such as 2024-02-30. */
export function parseDateTime(text: string): Date | undefined {
	const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text.trim());
	if (!m) return undefined;
	const [y, mo, d, h, mi, s] = m.slice(1).map(Number);
	const date = new Date(y, mo - 1, d, h, mi, s);
	if (date.getFullYear() !== y || date.getMonth() !== mo - 1 || date.getDate() !== d)
		return undefined;
	if (date.getHours() !== h || date.getMinutes() !== mi || date.getSeconds() !== s)
		return undefined;
	return date;
}

export function sha256(data: Buffer | string): string {
	return createHash('sha256').update(data).digest('hex');
}

export function digitsOnly(text: string): string {
	return text.replace(/\D+/g, '');
}

/**
 * Normalises a phone number the way the blacklist and user operations document it:
 * formatting characters are dropped and an international Israeli prefix becomes the local 0.
 */
export function normalizePhone(text: string): string {
	const digits = digitsOnly(text);
	if (digits.startsWith('972') && digits.length >= 11) return '0' + digits.slice(3);
	return digits;
}

/** Local Israeli form to international digits (user_phone is "converted to international format"). */
export function internationalPhone(text: string): string {
	const digits = digitsOnly(text);
	if (digits === '') return '';
	if (digits.startsWith('0')) return '972' + digits.slice(1);
	return digits;
}

/**
 * The sandbox's rule for "a valid Israeli number": after dropping spaces, dashes, dots, brackets and
 * a leading +, either 0 followed by 8-9 digits, or 972 followed by 8-9 digits.
 */
export function isIsraeliNumber(text: string): boolean {
	const compact = text
		.trim()
		.replace(/[\s\-().]/g, '')
		.replace(/^\+/, '');
	return /^0\d{8,9}$/.test(compact) || /^972\d{8,9}$/.test(compact);
}

export function isNumeric(text: string): boolean {
	return /^-?\d+(\.\d+)?$/.test(text.trim());
}

export function delay(ms: number, signal?: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (signal?.aborted) return resolve();
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal?.removeEventListener('abort', done);
			resolve();
		}
		signal?.addEventListener('abort', done, { once: true });
	});
}
