// The field profile: the service as integrators observed it, where that differs from our reading of
// the contract. Each behaviour can be switched on its own; the profile "field" switches them all.
// The identifier word (`virtualnum` in the contract) is separate: it takes a value.
export const FIELD_BEHAVIOURS = [
	/** update_virtualnum replaces the whole record: settable fields not sent are cleared. */
	'update-replaces',
	/** Call callbacks by GET, `?event=<word>` appended to the URL as text (even after a `?`). */
	'callback-get',
	/** The lower-case callback template (cli, <word>, destination, uuid, status, ...). */
	'callback-lower',
	/** Refusals as observed: the "ip address is not legal" text (HTTP 200) and `Token ...` bodies. */
	'refusal-texts',
	/** A recording does not exist yet for `recordingDelayMs` after the call ends. */
	'recording-delay',
	/** Click to Call and Two-Leg Call answer a status only, no call id. */
	'call-no-id',
] as const;

export type FieldBehaviour = (typeof FIELD_BEHAVIOURS)[number];

export type Profile = 'contract' | 'field';

export interface FieldSettings {
	behaviours: Set<FieldBehaviour>;
	/** Replaces `virtualnum` in every service and parameter name (default `virtualnum`). */
	word: string;
	/** How long a recording does not exist after its call ended ('recording-delay'). */
	recordingDelayMs: number;
	/** HTTP status of the observed refusal texts ('refusal-texts'): 200 as seen, or 401. */
	refusalStatus: number;
	/** Event words appended as `?event=` ('callback-get'). */
	eventWords: { start: string; end: string };
}

export const CONTRACT_WORD = 'virtualnum';

export function defaultFieldSettings(): FieldSettings {
	return {
		behaviours: new Set(),
		word: CONTRACT_WORD,
		recordingDelayMs: 5000,
		refusalStatus: 200,
		eventWords: { start: 'ring', end: 'hangup' },
	};
}

/** Reads a profile name and/or a behaviour list (array or comma separated); throws on a typo. */
export function parseBehaviours(
	profile: string | undefined,
	behaviours: string | string[] | undefined,
): Set<FieldBehaviour> {
	if (profile !== undefined && profile !== 'contract' && profile !== 'field')
		throw new Error(`profile must be "contract" or "field", got "${profile}"`);
	const out = new Set<FieldBehaviour>(profile === 'field' ? FIELD_BEHAVIOURS : []);
	const list = typeof behaviours === 'string' ? behaviours.split(',') : (behaviours ?? []);
	for (const raw of list) {
		const name = String(raw).trim();
		if (name === '') continue;
		if (!(FIELD_BEHAVIOURS as readonly string[]).includes(name))
			throw new Error(
				`unknown field behaviour "${name}"; expected one of ${FIELD_BEHAVIOURS.join(', ')}`,
			);
		out.add(name as FieldBehaviour);
	}
	return out;
}

export function validateWord(word: string): string {
	if (!/^[a-z][a-z0-9_]{1,30}$/i.test(word))
		throw new Error('word must be 2-31 letters, digits or _ and start with a letter');
	return word;
}

// ---- the identifier word ---------------------------------------------------------------------

/**
 * The service name as the contract spells it: with another word, `get_<word>` is `get_virtualnum`,
 * and a name that still says `virtualnum` is unknown to that service (undefined).
 */
export function contractService(service: string, word: string): string | undefined {
	if (word === CONTRACT_WORD) return service;
	if (service.includes(CONTRACT_WORD)) return undefined;
	return service.split(word).join(CONTRACT_WORD);
}

/** Parameters with the contract's names: `<word>1` → `virtualnum1`; `virtualnum…` names are dropped. */
export function contractParams(
	params: Record<string, string>,
	word: string,
): Record<string, string> {
	if (word === CONTRACT_WORD) return params;
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(params)) {
		if (key.includes(CONTRACT_WORD)) continue;
		const name = key.split(word).join(CONTRACT_WORD);
		out[name] = key === 'filter_name' && value === word ? CONTRACT_WORD : value;
	}
	return out;
}

/** Answer keys with the word: `virtualnum` → `<word>`, `virtualnum_old` → `<word>_old`, deep. */
export function renameKeys(value: unknown, word: string): unknown {
	if (word === CONTRACT_WORD) return value;
	if (Array.isArray(value)) return value.map((v) => renameKeys(v, word));
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value as Record<string, unknown>).map(([key, inner]) => [
			key.split(CONTRACT_WORD).join(word),
			renameKeys(inner, word),
		]),
	);
}

// ---- observed refusal texts --------------------------------------------------------------------

/** The texts integrators quote, for what the contract answers as 401 `Unauthorized - …`. */
export function observedRefusal(contractText: string, clientIp: string): string {
	if (/IP Address/i.test(contractText))
		return `The ip address is not legal for this web service ${clientIp}`;
	if (/Token Required/i.test(contractText)) return 'Token missing';
	if (/Token Expired/i.test(contractText)) return 'Token expired';
	if (/Account Suspended/i.test(contractText)) return 'Token invalid: the account is suspended';
	return 'Token invalid';
}
