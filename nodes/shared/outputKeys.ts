/**
 * Output field names n8n refuses in expressions (`$json.caller` fails with "Cannot access "caller"
 * due to security concerns"): n8n-workflow's own `isSafeObjectProperty` decides. The package's own
 * field names never are one (callFields.ts); what the services answer, and names users choose
 * (Two-Leg Call's custom parameters, SQL aliases), could be: such a key is renamed with a trailing
 * `_` (`caller` → `caller_`), at any depth, so the value stays reachable.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { n8nAcceptsKey as isSafe } from './n8nCompat';

/** Nesting kept as objects; anything deeper is passed on as its JSON text (no answer nests this deep). */
const MAX_DEPTH = 32;

/** A name n8n accepts for `key`, other than the names `taken` (the other keys of its object). */
function safeOutputKey(key: string, taken: (name: string) => boolean): string {
	if (isSafe(key)) return key;
	let name = `${key}_`;
	while (!isSafe(name) || taken(name)) name = `${name}_`;
	return name;
}

/**
 * `value` with every refused key renamed; the same object when none is (no copy of large results).
 * Used for every output item of both action nodes, and for the trigger's callbacks.
 */
export function withSafeKeys<T>(value: T, depth = 0): T {
	if (depth >= MAX_DEPTH && value !== null && typeof value === 'object')
		return JSON.stringify(value) as T;
	if (Array.isArray(value)) {
		const mapped = value.map((entry) => withSafeKeys(entry, depth + 1) as unknown);
		return (mapped.some((entry, index) => entry !== value[index]) ? mapped : value) as T;
	}
	if (
		value === null ||
		typeof value !== 'object' ||
		Buffer.isBuffer(value) ||
		value instanceof Date
	)
		return value;
	// Most objects have nothing to rename: found out without building a copy (10,000 output items of
	// a bulk send are checked in about 2 ms instead of 20, docs/benchmarks.md).
	if (!needsRenaming(value, depth)) return value;
	let changed = false;
	const object = value as IDataObject;
	const named = new Set<string>();
	const taken = (name: string) =>
		named.has(name) || Object.prototype.hasOwnProperty.call(object, name);
	const entries = Object.entries(object).map(([key, inner]) => {
		const name = safeOutputKey(key, taken);
		named.add(name);
		const safe = withSafeKeys(inner, depth + 1);
		if (name !== key || safe !== inner) changed = true;
		return [name, safe] as const;
	});
	return (changed ? Object.fromEntries(entries) : value) as T;
}

/** Whether a key of `value`, or of an object inside it, is one n8n refuses, or it nests too deep. */
function needsRenaming(value: unknown, depth: number): boolean {
	if (
		value === null ||
		typeof value !== 'object' ||
		Buffer.isBuffer(value) ||
		value instanceof Date
	)
		return false;
	if (depth >= MAX_DEPTH) return true;
	if (Array.isArray(value)) return value.some((entry) => needsRenaming(entry, depth + 1));
	for (const key in value) {
		if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
		if (!isSafe(key) || needsRenaming((value as IDataObject)[key], depth + 1)) return true;
	}
	return false;
}

/** Output items with safe keys in their json (binary data is left as it is). */
export function itemsWithSafeKeys(items: INodeExecutionData[]): INodeExecutionData[] {
	for (const item of items) item.json = withSafeKeys(item.json);
	return items;
}
