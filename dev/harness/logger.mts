/** Captures every line n8n-core logs, so tests can sweep them (for tokens, for instance). */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';

export const capturedLogs: string[] = [];

let installed = false;

export function installLogger(): void {
	if (installed) return;
	installed = true;
	const record =
		(level: string) =>
		(message: string, meta?: unknown): void => {
			capturedLogs.push(`${level} ${message}${meta === undefined ? '' : ` ${safeJson(meta)}`}`);
		};
	const logger = {
		error: record('error'),
		warn: record('warn'),
		info: record('info'),
		debug: record('debug'),
		scoped: () => logger,
	};
	Container.set(Logger, logger as unknown as Logger);
}

function safeJson(value: unknown): string {
	try {
		return JSON.stringify(value);
	} catch {
		return String(value);
	}
}
