/**
 * Output field names n8n refuses in expressions (`$json.caller` fails with "Cannot access "caller"
 * due to security concerns"): n8n-workflow's own `isSafeObjectProperty` decides. The package's own
 * field names never are one (callFields.ts); what the services answer, and names users choose
 * (Two-Leg Call's custom parameters, SQL aliases), could be: such a key is renamed with a trailing
 * `_` (`caller` → `caller_`), at any depth, so the value stays reachable.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';
import * as workflow from 'n8n-workflow';

/** n8n-workflow 1.83 has no such check (and its expressions refuse none of these names). */
const isSafe: (key: string) => boolean =
	typeof (workflow as { isSafeObjectProperty?: unknown }).isSafeObjectProperty === 'function'
		? (workflow as unknown as { isSafeObjectProperty: (key: string) => boolean })
				.isSafeObjectProperty
		: () => true;

/** A name n8n accepts for `key`. */
export function safeOutputKey(key: string): string {
	let name = key;
	while (!isSafe(name)) name = `${name}_`;
	return name;
}

/** `value` with every refused key renamed; the same object when none is (no copy of large results). */
export function withSafeKeys<T>(value: T): T {
	if (Array.isArray(value)) {
		const mapped = value.map((entry) => withSafeKeys(entry) as unknown);
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
	if (!needsRenaming(value as IDataObject)) return value;
	let changed = false;
	const entries = Object.entries(value as IDataObject).map(([key, inner]) => {
		const name = safeOutputKey(key);
		const safe = withSafeKeys(inner);
		if (name !== key || safe !== inner) changed = true;
		return [name, safe] as const;
	});
	return (changed ? Object.fromEntries(entries) : value) as T;
}

/** Whether a key of `object`, or of an object inside it, is one n8n refuses. */
function needsRenaming(object: IDataObject): boolean {
	for (const key in object) {
		if (!Object.prototype.hasOwnProperty.call(object, key)) continue;
		if (!isSafe(key)) return true;
		const inner = object[key];
		if (inner !== null && typeof inner === 'object' && withSafeKeys(inner) !== inner) return true;
	}
	return false;
}

/** Output items with safe keys in their json (binary data is left as it is). */
export function itemsWithSafeKeys(items: INodeExecutionData[]): INodeExecutionData[] {
	for (const item of items) item.json = withSafeKeys(item.json);
	return items;
}
