/**
 * The Allowed IPs option: addresses and CIDR ranges, IPv4 or IPv6, read once with the settings and
 * matched against each request's client address.
 */
import type { IpRange } from './types';

/** An IPv4 or IPv6 address as 16 bytes (IPv4 mapped to ::ffff:a.b.c.d), or undefined. */
function parseIpAddress(raw: string): number[] | undefined {
	let text = raw.trim();
	if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
	const zone = text.indexOf('%');
	if (zone !== -1) text = text.slice(0, zone);
	if (!text.includes(':')) {
		const v4 = parseIpv4(text);
		return v4 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...v4] : undefined;
	}
	return parseIpv6(text);
}

function parseIpv4(text: string): number[] | undefined {
	const parts = text.split('.');
	if (parts.length !== 4) return undefined;
	const bytes: number[] = [];
	for (const part of parts) {
		if (!/^\d{1,3}$/.test(part)) return undefined;
		const value = Number(part);
		if (value > 255) return undefined;
		bytes.push(value);
	}
	return bytes;
}

function parseIpv6(text: string): number[] | undefined {
	if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
	const halves = text.split('::');
	if (halves.length > 2) return undefined;
	const groups = (half: string): number[] | undefined => {
		if (half === '') return [];
		const out: number[] = [];
		const parts = half.split(':');
		for (let i = 0; i < parts.length; i++) {
			const part = parts[i];
			if (i === parts.length - 1 && part.includes('.')) {
				const v4 = parseIpv4(part);
				if (!v4) return undefined;
				out.push((v4[0] << 8) | v4[1], (v4[2] << 8) | v4[3]);
			} else {
				if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined;
				out.push(parseInt(part, 16));
			}
		}
		return out;
	};
	const head = groups(halves[0]);
	const tail = halves.length === 2 ? groups(halves[1]) : [];
	if (!head || !tail) return undefined;
	let all: number[];
	if (halves.length === 2) {
		const missing = 8 - head.length - tail.length;
		if (missing < 1) return undefined;
		all = [...head, ...new Array<number>(missing).fill(0), ...tail];
	} else {
		all = head;
	}
	if (all.length !== 8) return undefined;
	return all.flatMap((group) => [group >> 8, group & 0xff]);
}

/**
 * Reads an allowed-IP list: addresses or CIDR ranges, IPv4 or IPv6, separated by commas, spaces
 * or new lines. IPv4 entries also match IPv6-mapped IPv4 clients (::ffff:a.b.c.d).
 */
export function parseIpAllowList(text: string): { ranges: IpRange[]; invalid: string[] } {
	const ranges: IpRange[] = [];
	const invalid: string[] = [];
	for (const entry of text.split(/[\s,;]+/).filter(Boolean)) {
		const [address, prefixText, extra] = entry.split('/');
		const bytes = parseIpAddress(address);
		const isV4 = bytes !== undefined && !address.includes(':');
		const max = isV4 ? 32 : 128;
		const prefix =
			prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
		if (!bytes || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
			invalid.push(entry);
			continue;
		}
		ranges.push({ text: entry, bytes, prefix: isV4 ? prefix + 96 : prefix });
	}
	return { ranges, invalid };
}

/** Whether the client address falls in one of the ranges. */
export function ipAllowed(ip: string | undefined, ranges: IpRange[]): boolean {
	if (!ip) return false;
	const bytes = parseIpAddress(ip);
	if (!bytes) return false;
	return ranges.some((range) => {
		for (let bit = 0; bit < range.prefix; bit += 8) {
			const bits = Math.min(8, range.prefix - bit);
			const mask = (0xff << (8 - bits)) & 0xff;
			const index = bit / 8;
			if ((bytes[index] & mask) !== (range.bytes[index] & mask)) return false;
		}
		return true;
	});
}
