/**
 * A result row and its targets: each target is a check of one figure (a ratio, a rate, a count)
 * against a limit, met, missed (and by how much), or not measured (and why).
 */
import { round } from './sides.mts';

export interface Check {
	/** The target in words, e.g. "≤ 1.25× (floor + fetch)". */
	target: string;
	/** The figure the target is about (a ratio, a rate, a count). */
	value: number | null;
	limit: number;
	kind: 'atMost' | 'atLeast' | 'equal';
	/** null: not measured in this run (see `note`). */
	met: boolean | null;
	/** How far from the target, when missed. */
	missedBy?: string;
	note?: string;
}

export interface Compared {
	/** What the node is compared with, e.g. "fetch", "floor + fetch", "n8n's HTTP Request node". */
	label: string;
	value: number;
	/** The node's figure over this one (for a rate: this one over the node's, so above 1 always means "the node costs more"). */
	ratio: number;
}

export interface Row {
	name: string;
	description: string;
	unit: string;
	/** The node's figure (median); null when the row was not measured. */
	measured: number | null;
	compared: Compared[];
	checks: Check[];
	/** Every check met: true; one missed: false; nothing checked or not measured: null. */
	met: boolean | null;
	/** Why the row was not measured. */
	skipped?: string;
	repetitions?: number;
	[figure: string]: unknown;
}

export function check(
	target: string,
	value: number | null,
	limit: number,
	kind: Check['kind'],
	note?: string,
): Check {
	if (value === null || Number.isNaN(value))
		return { target, value: null, limit, kind, met: null, note };
	const met =
		kind === 'atMost' ? value <= limit : kind === 'atLeast' ? value >= limit : value === limit;
	const result: Check = { target, value: round(value, 2), limit, kind, met };
	if (!met) {
		result.missedBy =
			kind === 'atMost'
				? `${round((value / limit - 1) * 100)} % over (${round(value, 2)} against ≤ ${limit})`
				: kind === 'atLeast'
					? `${round((1 - value / limit) * 100)} % short (${round(value, 2)} against ≥ ${limit})`
					: `${round(value, 2)} instead of ${limit}`;
	}
	if (note) result.note = note;
	return result;
}

/** A row from its parts; `met` follows from the checks. */
export function row(parts: Omit<Row, 'met'> & { checks: Check[] }): Row {
	const states = parts.checks.map((c: Check) => c.met);
	const met = states.includes(false)
		? false
		: states.length > 0 && states.every((s) => s === true)
			? true
			: null;
	return { ...parts, met } as Row;
}

export function skippedRow(
	name: string,
	description: string,
	unit: string,
	reason: string,
	checks: Check[] = [],
): Row {
	return {
		name,
		description,
		unit,
		measured: null,
		compared: [],
		checks: checks.map((c) => ({ ...c, met: null, value: null, note: reason })),
		met: null,
		skipped: reason,
	};
}

export const ratio = (measured: number, against: number) => round(measured / against, 2);
