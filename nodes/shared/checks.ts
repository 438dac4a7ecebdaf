/**
 * The one module of input checks, shared by the nodes and the trigger. The limits are the
 * spec's, held as data (docs/api/*.md, "Limits" tables); each check fails before any request
 * with an error that names the item, the field, the rule and the value.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const MB = 1024 * 1024;

export const LIMITS = {
	// virtual number service
	description: { maxLength: 199 },
	callDestinationPhone: { maxLength: 150 },
	privateField: { maxLength: 254, count: 10 },
	callbackUrl: { maxLength: 511 },
	dialTimeoutInSec: { min: 1, max: 180 },
	recordPercentage: { min: 0, max: 100 },
	workingHours: { length: 168 },
	virtualnumForUpdate: { minLength: 5 },
	getVirtualnumLimit: { default: 1000, max: 10000 },
	availableAmount: { min: 1, max: 50, default: 5 },
	// Virtual Number node (numbers, calls, call records). Limit of Get Many without Return All.
	getManyLimit: { min: 1, max: 10000, default: 50 },
	/** Virtual numbers as typed: digits, optionally with +, spaces and dashes; at least 5 digits (update_virtualnum 4011). */
	virtualnum: { minDigits: 5, pattern: /^\+?[\d\s-]+$/ },
	callUuidNumeric: { pattern: /^\d+(\.\d+)?$/ },
	/** Names of Two-Leg Call custom parameters: plain names that cannot shadow the operation's own parameters. */
	customParameterName: {
		pattern: /^[A-Za-z][A-Za-z0-9_]{0,63}$/,
		reserved: ['service', 'format', 'virtualnum', 'virtualnum1', 'virtualnum2', 'destination1', 'destination2'],
	},
	cdrQueryLimit: { min: 1, default: 50 },
	/** Timeout option of heavy operations, in seconds (default: the spec's 10-minute run time). */
	longTimeoutSec: { min: 1, max: 3600, default: 600 },
	cdrSql: { maxBytes: 8192 },
	cdrSubuniqueRows: { max: 2000 },
	cdrTotacSec: { min: 1, max: 3599 },
	blacklistNote: { maxLength: 149 },
	userEmail: { maxLength: 99 },
	userPassword: { minLength: 8 },
	userPhone: { minLength: 6 },
	accessLogRows: { max: 1000 },
	click2callExpireDays: { min: 1, default: 365 },
	promptFile: {
		maxBytes: 50 * MB,
		extensions: ['wav', 'mp3', 'aac', 'flac', 'ogg', 'm4a', 'amr', 'opus'],
	},
	/** Run time of heavy operations (cdr_query, archived recordings). */
	longRequestMs: 10 * 60 * 1000,
	// SMS service
	textSender: { minLength: 3, maxLength: 11, pattern: /^[A-Za-z][A-Za-z0-9_-]{2,10}$/ },
	phoneSender: { pattern: /^(\d+|\*\d{4})$/ },
	otpCode: { pattern: /^\d{6}$/ },
	otpTypes: ['sms', 'call', 'distributor'],
	senderSearch: { pattern: /^[A-Za-z0-9]*$/ },
	// The spec shows no maximum batch size; 1000 is this package's ceiling (see README).
	smsBatchSize: { min: 1, max: 1000, default: 100 },
} as const;

/** Formats the services use for dates. */
export const DATE_FORMATS = {
	/** cdr_subunique_query, get_users_access_log, create_virtualnum_cdr ("Y-m-d H:i:s"). */
	virtualnum: 'yyyy-MM-dd HH:mm:ss',
	/** send_sms sendtime ("DD/MM/YYYY HH:mm"). */
	smsSendtime: 'dd/MM/yyyy HH:mm',
} as const;

/** Binds the checks to one item so every failure names it. */
export class InputChecks {
	constructor(
		private readonly node: INode,
		readonly itemIndex: number,
	) {}

	fail(field: string, rule: string, value?: unknown): never {
		const shown = value === undefined ? '' : ` (got ${describeValue(value)})`;
		throw new NodeOperationError(this.node, `${field}: ${rule}${shown}`, {
			itemIndex: this.itemIndex,
			description: `Fix the "${field}" field of item ${this.itemIndex} and run the node again.`,
		});
	}

	required(field: string, value: unknown): string {
		const text = value === undefined || value === null ? '' : String(value).trim();
		if (text === '') this.fail(field, 'is required and cannot be empty');
		return text;
	}

	maxLength(field: string, value: string, max: number): string {
		if (value.length > max) this.fail(field, `must be at most ${max} characters`, value);
		return value;
	}

	minLength(field: string, value: string, min: number): string {
		if (value.length < min) this.fail(field, `must be at least ${min} characters`, value);
		return value;
	}

	exactLength(field: string, value: string, length: number): string {
		if (value.length !== length) {
			this.fail(
				field,
				`must be exactly ${length} characters (the service silently ignores any other length)`,
				`${value.length} characters`,
			);
		}
		return value;
	}

	integerInRange(field: string, value: unknown, min: number, max: number): number {
		const number = typeof value === 'number' ? value : Number(String(value).trim());
		if (!Number.isInteger(number) || number < min || number > max) {
			this.fail(field, `must be a whole number from ${min} to ${max}`, value);
		}
		return number;
	}

	numeric(field: string, value: unknown): number {
		const text = String(value ?? '').trim();
		const number = Number(text);
		if (text === '' || !Number.isFinite(number)) this.fail(field, 'must be a number', value);
		return number;
	}

	digits(field: string, value: unknown): string {
		const text = String(value ?? '').trim();
		if (!/^\d+$/.test(text)) this.fail(field, 'must contain digits only', value);
		return text;
	}

	pattern(field: string, value: string, pattern: RegExp, rule: string): string {
		if (!pattern.test(value)) this.fail(field, rule, value);
		return value;
	}

	oneOf<T extends string>(field: string, value: string, allowed: readonly T[]): T {
		if (!(allowed as readonly string[]).includes(value)) {
			this.fail(field, `must be one of ${allowed.join(', ')}`, value);
		}
		return value as T;
	}

	json(field: string, value: string): string {
		try {
			JSON.parse(value);
		} catch {
			this.fail(field, 'must be valid JSON', value);
		}
		return value;
	}
}

function describeValue(value: unknown): string {
	const text = typeof value === 'string' ? `"${value}"` : JSON.stringify(value);
	return text.length > 80 ? `${text.slice(0, 77)}..."` : text;
}

/** Phone numbers as the SMS service wants them: digits only ("+972-50-123 4567" → "972501234567"). */
export function normalizePhone(raw: string): string | undefined {
	const text = raw.trim();
	if (!/^[+\d\s().-]+$/.test(text)) return undefined;
	const digits = text.replace(/\D/g, '');
	return digits === '' ? undefined : digits;
}

/** The name the service will store for an uploaded prompt (spec: upload_prompt rule 1). */
export function promptNameFromFileName(fileName: string): string {
	const base = fileName.split('/').pop() ?? fileName;
	return base
		.split('.')[0]
		.toLowerCase()
		// The spec only says "normalized"; spaces becoming "_" keeps word breaks (the sandbox does the same).
		.replace(/\s+/g, '_')
		.replace(/[^a-z0-9_-]/g, '');
}

/** Characters a prompt_name may contain for download and delete. */
export const PROMPT_NAME_PATTERN = /^[A-Za-z0-9_-]+$/;

/** The five rules of cdr_query's `sql` parameter (spec, "Rules for sql"), as data. */
export const CDR_SQL_RULES = {
	maxBytes: LIMITS.cdrSql.maxBytes,
	view: 'webserviceview',
	forbiddenWords: [
		'INSERT',
		'UPDATE',
		'DELETE',
		'DROP',
		'ALTER',
		'CREATE',
		'TRUNCATE',
		'RENAME',
		'GRANT',
		'REVOKE',
		'LOAD_FILE',
		'INTO OUTFILE',
		'INTO DUMPFILE',
		'INFORMATION_SCHEMA',
		'PERFORMANCE_SCHEMA',
		'MYSQL.',
		'SYS.',
	],
	forbiddenTokens: [
		{ token: '--', name: 'SQL comments (--)' },
		{ token: '#', name: 'SQL comments (#)' },
		{ token: '/*', name: 'SQL comments (/* */)' },
		{ token: '*/', name: 'SQL comments (/* */)' },
		{ token: '@@', name: 'service variables (@@)' },
		{ token: ':=', name: 'assignment (:=)' },
		{ token: ';', name: 'statement stacking (;)' },
	],
	timingFunctions: ['SLEEP', 'BENCHMARK', 'GET_LOCK'],
} as const;

/**
 * Checks a statement against the spec's rules before it is sent. Returns the broken rule, or
 * undefined when the statement passes. Quoted string contents are ignored, so a value such as
 * 'a#b' inside quotes does not trip the comment rule.
 */
export function findCdrSqlViolation(sql: string): string | undefined {
	const bytes = Buffer.byteLength(sql, 'utf8');
	if (bytes > CDR_SQL_RULES.maxBytes) {
		return `Rule 1: the statement is ${bytes} bytes; the limit is ${CDR_SQL_RULES.maxBytes} bytes`;
	}
	const code = sql.replace(/'(?:[^'\\]|\\.|'')*'|"(?:[^"\\]|\\.)*"/g, "''");
	if (/'[^']*$/.test(code.replace(/''/g, ''))) return 'The statement has an unterminated quote';
	const upper = code.toUpperCase();
	if (!/^\s*SELECT\b/.test(upper)) return 'Rule 1: the statement must start with SELECT';
	const fromTargets = [...upper.matchAll(/\bFROM\s+([`\w.]+)/g)].map((m) => m[1].replace(/`/g, ''));
	if (fromTargets.length === 0) return `Rule 1: the statement must select FROM ${CDR_SQL_RULES.view}`;
	const other = fromTargets.find((target) => target !== CDR_SQL_RULES.view.toUpperCase());
	if (other) return `Rule 1: only ${CDR_SQL_RULES.view} may be read, not ${other.toLowerCase()}`;
	if (/\bJOIN\b/.test(upper)) return `Rule 1: only ${CDR_SQL_RULES.view} may be read (no JOIN)`;
	const selects = upper.match(/\bSELECT\b/g)?.length ?? 0;
	if (selects !== 1) return 'Rule 2: exactly one SELECT is allowed (no subqueries)';
	if (/\bUNION\b/.test(upper)) return 'Rule 2: UNION is not allowed';
	for (const { token, name } of CDR_SQL_RULES.forbiddenTokens) {
		if (code.includes(token)) {
			return token === ';' ? 'Rule 2: one statement only (no ;)' : `Rule 4: ${name} are not allowed`;
		}
	}
	for (const word of CDR_SQL_RULES.forbiddenWords) {
		const pattern = word.endsWith('.')
			? new RegExp(`\\b${word.replace('.', '\\.')}`)
			: new RegExp(`\\b${word.replace(' ', '\\s+')}\\b`);
		if (pattern.test(upper)) return `Rule 3: ${word.replace(/\.$/, '')} is not allowed`;
	}
	for (const fn of CDR_SQL_RULES.timingFunctions) {
		if (new RegExp(`\\b${fn}\\s*\\(`).test(upper)) return `Rule 4: the timing function ${fn}() is not allowed`;
	}
	return undefined;
}

/** MIME types of the supported prompt formats (LIMITS.promptFile.extensions), for files named without an extension. */
export const PROMPT_MIME_TYPES: Record<string, (typeof LIMITS.promptFile.extensions)[number]> = {
	'audio/wav': 'wav',
	'audio/x-wav': 'wav',
	'audio/wave': 'wav',
	'audio/vnd.wave': 'wav',
	'audio/mpeg': 'mp3',
	'audio/mp3': 'mp3',
	'audio/aac': 'aac',
	'audio/x-aac': 'aac',
	'audio/flac': 'flac',
	'audio/x-flac': 'flac',
	'audio/ogg': 'ogg',
	'audio/mp4': 'm4a',
	'audio/x-m4a': 'm4a',
	'audio/amr': 'amr',
	'audio/opus': 'opus',
};

/**
 * The supported prompt format of a file (spec: upload_prompt rule 4): by the extension of its
 * name, or by its MIME type when the name has none. Undefined when it is not a supported one.
 */
export function promptFileType(fileName: string, mimeType?: string): string | undefined {
	const base = fileName.split('/').pop() ?? fileName;
	const dot = base.lastIndexOf('.');
	const supported = LIMITS.promptFile.extensions as readonly string[];
	if (dot > 0) {
		const extension = base.slice(dot + 1).toLowerCase();
		return supported.includes(extension) ? extension : undefined;
	}
	return PROMPT_MIME_TYPES[(mimeType ?? '').split(';')[0].trim().toLowerCase()];
}

/** A phone number as typed by a user: digits with the usual formatting characters, at least one digit. */
export const PHONE_INPUT_PATTERN = /^\+?[\d\s().-]*\d[\d\s().-]*$/;
/**
 * A list of phone numbers as users type or map it: comma, semicolon or newline separated, or an
 * array from an expression. Returns the parts as written (trimmed, empty parts dropped).
 */
export function splitPhoneList(raw: unknown): string[] {
	const parts = Array.isArray(raw) ? raw.map((value) => String(value ?? '')) : [String(raw ?? '')];
	return parts
		.flatMap((part) => part.split(/[,;\r\n]+/))
		.map((part) => part.trim())
		.filter((part) => part !== '');
}

/** What an SMS sender value is, by the spec's sender rules (Limits: text sender, phone sender). */
export type SmsSenderKind = 'text' | 'phone' | 'speedDial';

/**
 * Normalizes a sender: a text sender as is, a phone number to digits only ("+972-50-123 4567" →
 * "972501234567"), a speed dial `*XXXX` as is. Undefined when it fits none of the rules.
 */
export function normalizeSmsSender(raw: string): { kind: SmsSenderKind; value: string } | undefined {
	const text = raw.trim();
	if (/^\*\d{4}$/.test(text)) return { kind: 'speedDial', value: text };
	// A text sender starts with a Latin letter, so anything starting with a digit, + or ( is a phone.
	if (/^[+\d(]/.test(text)) {
		const digits = normalizePhone(text);
		return digits && LIMITS.phoneSender.pattern.test(digits) ? { kind: 'phone', value: digits } : undefined;
	}
	return LIMITS.textSender.pattern.test(text) ? { kind: 'text', value: text } : undefined;
}

/** The rules of a sender, in the user's words, for error messages and hints. */
export const SMS_SENDER_RULES = {
	text: 'a text sender must be 3-11 characters, start with a Latin letter and contain only a-z A-Z 0-9 _ -',
	phone: 'a phone sender must be a phone number (digits; spaces, dashes, dots, brackets and a leading + are removed) or a speed dial *XXXX',
} as const;
/** A virtual number as typed ("+972 3-555 1234"), returned as the digits the service lists it by. */
export function checkVirtualnum(checks: InputChecks, field: string, value: unknown): string {
	const text = checks.required(field, value);
	const digits = text.replace(/\D/g, '');
	if (!LIMITS.virtualnum.pattern.test(text) || digits.length < LIMITS.virtualnum.minDigits) {
		checks.fail(field, `must be a phone number of at least ${LIMITS.virtualnum.minDigits} digits`, value);
	}
	return digits;
}

/** A phone number (formatting such as +, spaces, dashes and brackets allowed), returned as digits. */
export function checkPhone(checks: InputChecks, field: string, value: unknown): string {
	const text = checks.required(field, value);
	const digits = normalizePhone(text);
	if (digits === undefined) checks.fail(field, 'must be a phone number (digits, optionally with +, spaces, dashes or brackets)', value);
	return digits;
}

/** Comma-separated phone numbers, each returned as digits. */
export function checkPhoneList(checks: InputChecks, field: string, value: unknown): string[] {
	const text = checks.required(field, value);
	return text.split(',').map((part, index) => {
		if (part.trim() === '') checks.fail(field, `has an empty entry at position ${index + 1} of the comma-separated list`, value);
		const digits = normalizePhone(part);
		if (digits === undefined) {
			checks.fail(field, 'must be phone numbers separated by commas (digits, optionally with +, spaces or dashes)', value);
		}
		return digits;
	});
}
