/**
 * The one module of input checks, shared by the nodes and the trigger, and the limits more than
 * one of them uses. The limits are the spec's, held as data (docs/api/*.md, "Limits" tables); each
 * check fails before any request with an error that names the item, the field, the rule and the value.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { withErrorDetails } from './errors';
import { maskSecrets } from './masking';

export const MB = 1024 * 1024;

/** The virtual number service's limits (the SMS service's are the Bulk SMS node's own: nodes/BulkSms/rules.ts). */
export const LIMITS = {
	// virtual number service: what the Virtual Number node shares with the trigger or a transport
	// (the node's own limits are in nodes/VirtualNumber/limits.ts)
	callbackUrl: { maxLength: 511 },
	promptFile: {
		maxBytes: 50 * MB,
		extensions: ['wav', 'mp3', 'aac', 'flac', 'ogg', 'm4a', 'amr', 'opus'],
	},
} as const;

/** Binds the checks to one item so every failure names it. */
export class InputChecks {
	constructor(
		private readonly node: INode,
		readonly itemIndex: number,
	) {}

	fail(field: string, rule: string, value?: unknown): never {
		// A value quoted back may be a URL with its secret (a Delivery Report URL's `secret=` or SMS
		// token): masked whole before it is shortened, so no part of it is left showing.
		const masked = typeof value === 'string' ? maskSecrets(value) : value;
		const shown = value === undefined ? '' : ` (got ${maskSecrets(describeValue(masked))})`;
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
