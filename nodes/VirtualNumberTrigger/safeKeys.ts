/**
 * Keys n8n refuses in expressions ("Cannot access "caller" due to security concerns"): n8n-workflow's
 * `isSafeObjectProperty` list as of n8n 2.40 (a superset of what older versions refuse; kept here
 * because n8n-workflow 1.83 does not export it). A callback's untouched `query` and `body` are
 * passed on with each refused key renamed by a trailing underscore (`caller` → `caller_`, one more
 * when that name is taken too), at any depth, so that every value stays reachable by expression.
 */
const REFUSED_KEYS = new Set([
	'__proto__',
	'prototype',
	'constructor',
	'getPrototypeOf',
	'setPrototypeOf',
	'getOwnPropertyDescriptor',
	'getOwnPropertyDescriptors',
	'defineProperty',
	'defineProperties',
	'mainModule',
	'binding',
	'_linkedBinding',
	'_load',
	'prepareStackTrace',
	'__lookupGetter__',
	'__lookupSetter__',
	'__defineGetter__',
	'__defineSetter__',
	'caller',
	'callee',
	'arguments',
	'getBuiltinModule',
	'dlopen',
	'execve',
	'loadEnvFile',
]);

/** Nesting kept as objects; anything deeper is passed on as its JSON text (no callback nests this deep). */
const MAX_DEPTH = 32;

export function isRefusedKey(key: string): boolean {
	return REFUSED_KEYS.has(key);
}

/** The name a key gets in the output. */
function safeName(key: string, taken: (name: string) => boolean): string {
	if (!REFUSED_KEYS.has(key)) return key;
	let name = `${key}_`;
	while (REFUSED_KEYS.has(name) || taken(name)) name += '_';
	return name;
}

/** A copy of a parsed value whose object keys, at any depth, are all names n8n accepts. */
export function withSafeKeys(value: unknown, depth = 0): unknown {
	if (value === null || typeof value !== 'object') return value;
	if (depth >= MAX_DEPTH) return JSON.stringify(value);
	if (Array.isArray(value)) return value.map((entry) => withSafeKeys(entry, depth + 1));
	if (Buffer.isBuffer(value)) return value.toString('utf8');
	const source = value as Record<string, unknown>;
	const keys = Object.keys(source);
	const out: Record<string, unknown> = {};
	for (const key of keys) {
		const name = safeName(
			key,
			(candidate) =>
				keys.includes(candidate) || Object.prototype.hasOwnProperty.call(out, candidate),
		);
		Object.defineProperty(out, name, {
			value: withSafeKeys(source[key], depth + 1),
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return out;
}
