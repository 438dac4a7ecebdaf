// What every virtual number operation shares: its context, its parameters, its way to fail.
import type { Core } from '../core.mts';
import type { UploadedFile } from '../http.mts';
import type { State, VnRecord } from '../state.mts';
import { digitsOnly } from '../util.mts';

/** A service answer with a non-200 status.code (the HTTP status stays 200, as in the spec). */
export class ServiceError extends Error {
	constructor(
		readonly code: number,
		description: string,
	) {
		super(description);
	}
}

export interface RawAnswer {
	contentType: string;
	length: number;
	chunks: () => Iterable<Buffer>;
	filename?: string;
}

export type OpResult =
	| { description?: string; result?: unknown; status?: Record<string, unknown> }
	| { raw: RawAnswer };

export class Params {
	constructor(private readonly values: Record<string, string>) {}

	has(name: string): boolean {
		return this.values[name] !== undefined;
	}

	/** Trimmed value, '' when absent. */
	str(name: string): string {
		return (this.values[name] ?? '').trim();
	}

	/** Untrimmed value or undefined. */
	raw(name: string): string | undefined {
		return this.values[name];
	}

	filled(name: string): boolean {
		return this.str(name) !== '';
	}

	/** undefined when absent or empty, NaN when not an integer. */
	int(name: string): number | undefined {
		const text = this.str(name);
		if (text === '') return undefined;
		return /^-?\d+$/.test(text) ? Number(text) : NaN;
	}

	all(): Record<string, string> {
		return { ...this.values };
	}
}

export interface OpContext {
	core: Core;
	state: State;
	params: Params;
	files: UploadedFile[];
	format: 'json' | 'xml';
	/** The user the token belongs to (tokens work under that user's permissions). */
	userId?: number;
	service: string;
}

export type OpHandler = (ctx: OpContext) => OpResult | Promise<OpResult>;

/** A virtual number as sent: digits only, at least 5 of them. */
export function isValidVirtualnum(text: string): boolean {
	return /^\+?[\d\s-]+$/.test(text) && digitsOnly(text).length >= 5;
}

/** Number lookup accepting formatting characters in the request. */
export function findNumber(state: State, text: string): VnRecord | undefined {
	return state.numbers.get(digitsOnly(text)) ?? state.numbers.get(text.trim());
}

/** Deep copy so that callers of the control API can never mutate the live state. */
export function copy<T>(value: T): T {
	return structuredClone(value);
}
