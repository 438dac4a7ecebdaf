/**
 * Turns a raw HTTP answer of either service into what it is: a JSON value, a status from an
 * XML answer (the virtual number service answers XML when it ignores `format=json`), a plain
 * text (the 401s), an HTML page or an empty body (proxies). Pure functions, no dependencies, so
 * the nodes, the trigger and the credential tests read answers the same way.
 */
import type { IDataObject } from 'n8n-workflow';

export type DecodedAnswer =
	| { kind: 'json'; value: unknown }
	| { kind: 'xml'; status?: { code: number; description: string }; text: string }
	| { kind: 'html'; text: string }
	| { kind: 'text'; text: string }
	| { kind: 'empty' };

export function bodyToText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (Buffer.isBuffer(body)) return body.toString('utf8');
	if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
	return JSON.stringify(body);
}

export function decodeAnswer(body: unknown): DecodedAnswer {
	if (
		body !== null &&
		typeof body === 'object' &&
		!Buffer.isBuffer(body) &&
		!(body instanceof ArrayBuffer)
	) {
		return { kind: 'json', value: body };
	}
	const text = bodyToText(body).replace(/^\uFEFF/, '');
	const trimmed = text.trim();
	if (trimmed === '') return { kind: 'empty' };
	if (/^[[{]/.test(trimmed)) {
		try {
			return { kind: 'json', value: JSON.parse(trimmed) };
		} catch {
			return { kind: 'text', text };
		}
	}
	if (/^<!doctype html|^<html|<body[\s>]/i.test(trimmed)) return { kind: 'html', text };
	if (trimmed.startsWith('<')) return { kind: 'xml', status: readXmlStatus(trimmed), text };
	return { kind: 'text', text };
}

/**
 * Reads `<status><code>…</code><description>…</description></status>` without an XML library:
 * hand-written because the package may add no runtime dependency, and n8n-workflow has no XML reader.
 */
export function readXmlStatus(xml: string): { code: number; description: string } | undefined {
	const status = /<status\b[^>]*>([\s\S]*?)<\/status>/i.exec(xml)?.[1] ?? xml;
	const code = /<code\b[^>]*>\s*(\d+)\s*<\/code>/i.exec(status)?.[1];
	if (code === undefined) return undefined;
	const description = /<description\b[^>]*>([\s\S]*?)<\/description>/i.exec(status)?.[1] ?? '';
	return { code: Number(code), description: decodeXmlText(description.trim()) };
}

function decodeXmlText(text: string): string {
	return text
		.replace(/^<!\[CDATA\[([\s\S]*)\]\]>$/, '$1')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&quot;/g, '"')
		.replace(/&apos;/g, "'")
		.replace(/&amp;/g, '&');
}

/** A short, safe excerpt of an unexpected body for an error description. */
export function excerpt(text: string, max = 200): string {
	const flat = text
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
	return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

export function isDataObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}
