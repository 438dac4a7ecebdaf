// What the demo's steps share: their checks (a failed one names what went wrong), reading a node's
// output and binary data, waiting for a callback, and the plain text tables of the report.
import { createHash } from 'node:crypto';

import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';

import type { RunResult } from '../harness/engine.mts';

export class DemoFailure extends Error {}

/** Thrown by a step that cannot run on this machine: reported as "not run" with the reason. */
export class NotRun extends Error {}

export function check(condition: unknown, message: string): asserts condition {
	if (!condition) throw new DemoFailure(message);
}

/** Output items of a node; a failed run becomes the node's error in its own words. */
export function outputOf(run: RunResult, nodeName: string): INodeExecutionData[] {
	if (run.error) {
		const description = run.error.description ? ` — ${run.error.description}` : '';
		throw new DemoFailure(
			`${run.error.node?.name ?? 'the workflow'} failed: ${run.error.message}${description}`,
		);
	}
	return run.items(nodeName);
}

export async function bytesOf(binary: IBinaryData): Promise<Buffer> {
	if (binary.id) {
		const { Container } = await import('@n8n/di');
		const { BinaryDataService } = await import('n8n-core');
		return await Container.get(BinaryDataService).getAsBuffer(binary);
	}
	return Buffer.from(binary.data, 'base64');
}

export async function waitFor(
	condition: () => boolean,
	what: string,
	timeoutMs = 5000,
): Promise<void> {
	const until = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > until)
			throw new DemoFailure(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
export const text = (value: unknown) =>
	value === undefined || value === null ? '' : String(value);

/** A plain text table, columns padded to their widest cell. */
export function table(headers: string[], rows: unknown[][]): string[] {
	const cells = [headers, ...rows.map((row) => row.map(text))];
	const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
	const line = (row: string[]) =>
		row
			.map((cell, column) => cell.padEnd(widths[column]))
			.join('   ')
			.trimEnd();
	return [
		line(headers),
		line(widths.map((width) => '-'.repeat(width))),
		...cells.slice(1).map(line),
	];
}

export function kb(bytes: number): string {
	return `${bytes.toLocaleString('en-US')} bytes`;
}
