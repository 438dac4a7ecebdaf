/**
 * The trigger's one way to write to n8n's log. Callers' values (a call ID, a caller's number, a
 * refused destination) come from a request anyone can send: a newline in one would forge a log
 * line of its own, and a terminal escape would rewrite what an operator reads. So every control
 * character (C0, DEL, C1, and the Unicode line and paragraph separators) is taken out of the
 * message and of every text in its metadata, and every secret is masked.
 */
import type { IDataObject, Logger } from 'n8n-workflow';

import { maskSecrets } from '../shared/masking';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Text without control characters (each becomes a space), at most `max` characters. */
export function printable(text: unknown, max = 200): string {
	const value = String(text ?? '').replace(CONTROL, ' ');
	return value.length > max ? `${value.slice(0, max)}…` : value;
}

function cleanMeta(meta: IDataObject | undefined, secrets: string[]): IDataObject | undefined {
	if (meta === undefined) return undefined;
	const clean: IDataObject = {};
	for (const [key, value] of Object.entries(meta))
		clean[key] = typeof value === 'string' ? maskSecrets(printable(value), secrets) : value;
	return clean;
}

export function logLine(
	logger: Logger,
	level: 'info' | 'warn' | 'error',
	message: string,
	options: { meta?: IDataObject; secrets?: string[] } = {},
): void {
	const secrets = options.secrets ?? [];
	const text = `Virtual Number Trigger: ${maskSecrets(printable(message, 2000), secrets)}`;
	try {
		logger[level](text, cleanMeta(options.meta, secrets));
	} catch {
		// A logger that fails never fails the callback or the activation.
	}
}
