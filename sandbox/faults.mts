// Fault injection: a queue of faults, each applying to the next `count` requests that match its
// server and operation. Pre-answer faults replace the answer; post-answer faults distort it.
import type { ServerResponse } from 'node:http';
import { send, sendText } from './http.mts';

export type UnauthorizedText = 'IP' | 'Token Required' | 'Token Expired' | 'Invalid Token' | 'Account Suspended';

export type FaultSpec =
	| { kind: 'http500' }
	| { kind: 'hang' }
	| { kind: 'html' }
	| { kind: 'truncatedJson' }
	| { kind: 'xml' }
	| { kind: 'wrongLength'; delta?: number }
	| { kind: 'unauthorized'; text: UnauthorizedText }
	| { kind: 'slow'; delayMs: number }
	| { kind: 'empty' }
	| { kind: 'serviceError'; code: number; description?: string };

export type Fault = FaultSpec & { server?: 'vn' | 'sms'; operation?: string; count?: number };

export interface PendingFault {
	id: number;
	fault: Fault;
	remaining: number;
}

const KINDS = new Set(['http500', 'hang', 'html', 'truncatedJson', 'xml', 'wrongLength', 'unauthorized', 'slow', 'empty', 'serviceError']);
const TEXTS = new Set(['IP', 'Token Required', 'Token Expired', 'Invalid Token', 'Account Suspended']);

/** Throws a readable error for a malformed fault, so a typo in a test fails loudly. */
export function validateFault(input: unknown): Fault {
	if (!input || typeof input !== 'object') throw new Error('fault must be an object');
	const fault = input as Record<string, unknown>;
	if (!KINDS.has(String(fault.kind))) throw new Error(`unknown fault kind "${String(fault.kind)}"; expected one of ${[...KINDS].join(', ')}`);
	if (fault.server !== undefined && fault.server !== 'vn' && fault.server !== 'sms') throw new Error('server must be "vn" or "sms"');
	if (fault.count !== undefined && (!Number.isInteger(fault.count) || (fault.count as number) < 1)) throw new Error('count must be a positive integer');
	if (fault.kind === 'unauthorized' && !TEXTS.has(String(fault.text))) throw new Error(`text must be one of ${[...TEXTS].join(', ')}`);
	if (fault.kind === 'slow' && (typeof fault.delayMs !== 'number' || fault.delayMs < 0)) throw new Error('slow needs delayMs >= 0');
	if (fault.kind === 'serviceError' && !Number.isInteger(fault.code)) throw new Error('serviceError needs an integer code');
	if (fault.kind === 'wrongLength' && fault.delta !== undefined && !Number.isInteger(fault.delta)) throw new Error('delta must be an integer');
	return fault as unknown as Fault;
}

export class FaultQueue {
	private pending: PendingFault[] = [];
	private nextId = 1;

	add(input: unknown): PendingFault {
		const fault = validateFault(input);
		const entry = { id: this.nextId++, fault, remaining: fault.count ?? 1 };
		this.pending.push(entry);
		return entry;
	}

	/** The first pending fault matching the request, consumed by one. */
	take(server: 'vn' | 'sms', operation: string): Fault | undefined {
		const index = this.pending.findIndex(
			(p) => (p.fault.server === undefined || p.fault.server === server) && (p.fault.operation === undefined || p.fault.operation === operation),
		);
		if (index < 0) return undefined;
		const entry = this.pending[index];
		entry.remaining--;
		if (entry.remaining <= 0) this.pending.splice(index, 1);
		return entry.fault;
	}

	list(): PendingFault[] {
		return this.pending.map((p) => ({ ...p, fault: { ...p.fault } }));
	}

	clear(): void {
		this.pending = [];
	}
}

export function unauthorizedText(text: UnauthorizedText, clientIp: string): string {
	return text === 'IP' ? `Unauthorized - IP Address:'${clientIp}' is not allowed` : `Unauthorized - ${text}`;
}

export const HTML_PROXY_ERROR = `<!DOCTYPE html>
<html>
<head><title>502 Bad Gateway</title></head>
<body>
<center><h1>502 Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
`;

/** First half of a serialized answer, cut so that it is certainly not valid JSON any more. */
export function truncate(text: string): string {
	return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
}

/** wrongLength: drops |delta| trailing items, or repeats the last item delta times. */
export function distortLength<T>(items: T[], delta = -1): T[] {
	if (delta < 0) return items.slice(0, Math.max(0, items.length + delta));
	if (items.length === 0) return items;
	return [...items, ...Array.from({ length: delta }, () => items[items.length - 1])];
}

/** Faults that replace the answer entirely; true when the request is answered (or left hanging). */
export function applyPreFault(res: ServerResponse, fault: Fault | undefined, clientIp: string): boolean {
	if (!fault) return false;
	switch (fault.kind) {
		case 'http500':
			sendText(res, 500, 'Internal Server Error');
			return true;
		case 'html':
			sendText(res, 502, HTML_PROXY_ERROR, 'text/html; charset=utf-8');
			return true;
		case 'empty':
			send(res, 200, 'text/html; charset=utf-8', '');
			return true;
		case 'unauthorized':
			sendText(res, 401, unauthorizedText(fault.text, clientIp));
			return true;
		case 'hang':
			// Never answered: the socket stays open until the client gives up or the sandbox closes.
			return true;
		default:
			return false;
	}
}
