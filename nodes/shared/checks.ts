/**
 * The one module of input checks, shared by the nodes and the trigger. The limits are the
 * spec's, held as data (docs/api/*.md, "Limits" tables); each check fails before any request
 * with an error that names the item, the field, the rule and the value.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withErrorDetails } from './errors';

export const MB = 1024 * 1024;

/** The virtual number service's limits (the SMS service's are the Bulk SMS node's own: nodes/BulkSms/rules.ts). */
export const LIMITS = {
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
} as const;

/** Binds the checks to one item so every failure names it. */
export class InputChecks {
	constructor(
		private readonly node: INode,
		readonly itemIndex: number,
	) {}

	fail(field: string, rule: string, value?: unknown): never {
		const shown = value === undefined ? '' : ` (got ${describeValue(value)})`;
		const error = new NodeOperationError(this.node, `${field}: ${rule}${shown}`, {
			itemIndex: this.itemIndex,
			description: `Fix the "${field}" field of item ${this.itemIndex} and run the node again.`,
		});
		throw withErrorDetails(error, { field });
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
