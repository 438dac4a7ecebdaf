// Reads the service contracts in docs/api/ so tests derive their expectations from the spec itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const apiDir = fileURLToPath(new URL('../../docs/api/', import.meta.url));

export function readSpec(name: 'virtual-number-service.md' | 'sms-service.md'): string {
	return readFileSync(apiDir + name, 'utf8');
}

export interface SpecErrorCode {
	service: string;
	code: number;
	meaning: string;
}

/** Expands "4002-4006" and "4008, 4009" cells into single codes. */
export function expandCodeCell(cell: string): number[] {
	const codes: number[] = [];
	for (const part of cell
		.split(',')
		.map((p) => p.trim())
		.filter(Boolean)) {
		const range = /^(\d+)\s*-\s*(\d+)$/.exec(part);
		if (range) {
			for (let code = Number(range[1]); code <= Number(range[2]); code++) codes.push(code);
		} else if (/^\d+$/.test(part)) {
			codes.push(Number(part));
		} else {
			throw new Error(`Unreadable code cell "${cell}"`);
		}
	}
	return codes;
}

function tableAfter(markdown: string, heading: string, header: RegExp): string[][] {
	const start = markdown.indexOf(heading);
	if (start < 0) throw new Error(`Heading "${heading}" not found in the spec`);
	const lines = markdown.slice(start).split('\n');
	const headerIndex = lines.findIndex((line) => header.test(line));
	if (headerIndex < 0) throw new Error(`Table ${header} not found after "${heading}"`);
	const rows: string[][] = [];
	for (const line of lines.slice(headerIndex + 2)) {
		if (!line.startsWith('|')) break;
		rows.push(
			line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim()),
		);
	}
	return rows;
}

/** Every (service, code) pair of the spec's "Service codes" table. */
export function specServiceCodes(): SpecErrorCode[] {
	const rows = tableAfter(
		readSpec('virtual-number-service.md'),
		'Service codes:',
		/^\| Service \| Code \| Meaning \|/,
	);
	return rows.flatMap(([service, cell, meaning]) =>
		expandCodeCell(cell).map((code) => ({ service, code, meaning })),
	);
}

/** The general codes (200, 401, 998, 999) that apply to every operation. */
export function specGeneralCodes(): Array<{ code: number; meaning: string }> {
	const rows = tableAfter(
		readSpec('virtual-number-service.md'),
		'General codes',
		/^\| Code \| Meaning \|/,
	);
	return rows.map(([code, meaning]) => ({ code: Number(code), meaning }));
}

/** The 401 answer texts of the Authentication section, including the IP one. */
export function specUnauthorizedTexts(): string[] {
	const spec = readSpec('virtual-number-service.md');
	const texts = [...spec.matchAll(/401 (?:with text )?`(Unauthorized - [^`]+)`/g)].map((m) => m[1]);
	return [...new Set(texts)];
}

/** Names of all operations the virtual number spec documents (headings and tables). */
export function specVirtualnumOperations(): string[] {
	const spec = readSpec('virtual-number-service.md');
	const names = new Set<string>();
	for (const m of spec.matchAll(/^#### ([a-z0-9_]+)\s*$/gm)) names.add(m[1]);
	const prompts = tableAfter(spec, '### Voice prompts', /^\| Operation \| Parameters \| Result \|/);
	for (const [name] of prompts) names.add(name);
	const tagLine = /Operations \(names and purpose only\): (.*)$/m.exec(spec);
	if (tagLine) for (const m of tagLine[1].matchAll(/`([a-z_]+)`/g)) names.add(m[1]);
	names.add('test');
	return [...names].sort();
}

/** A spec's "Limits" table as subject → limit text. */
export function specLimits(
	name: 'virtual-number-service.md' | 'sms-service.md',
): Map<string, string> {
	const rows = tableAfter(readSpec(name), '## Limits', /^\| Subject \| Limit \|/);
	return new Map(rows.map(([subject, limit]) => [subject, limit]));
}

/** Asserts that the spec's Limits row `subject` reads as `pattern` and names `value`. */
export function assertLimitRow(
	limits: Map<string, string>,
	subject: string,
	pattern: RegExp,
	value: number,
): void {
	const text = limits.get(subject);
	assert.ok(text, `the spec has no limit row "${subject}"`);
	assert.match(text, pattern);
	assert.ok(text.includes(String(value)), `${text} vs ${value}`);
}
