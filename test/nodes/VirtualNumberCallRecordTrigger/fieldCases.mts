// The field-data corpora of one call's answers (test/fixtures/field-data/recordings, …/metadata) as the
// sandbox serves them, and what the trigger's tests read of the static data and of an item's error.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import type { IDataObject } from 'n8n-workflow';

import type { Fault } from '../../../dev/sandbox/index.mts';

export interface FieldCase<Expect> {
	name: string;
	answer: IDataObject & { kind: string; file?: string };
	times: 'once' | 'always';
	timeoutSec?: number;
	expect: Expect & { held: boolean };
}

/** The answers one operation gives for one call (a corpus folder's cases.json). */
export class FieldCases<Expect> {
	readonly cases: Array<FieldCase<Expect>>;
	private readonly folder: URL;

	constructor(folder: string) {
		this.folder = new URL(`../../fixtures/field-data/${folder}/`, import.meta.url);
		const text = readFileSync(new URL('cases.json', this.folder), 'utf8');
		this.cases = (JSON.parse(text) as { cases: Array<FieldCase<Expect>> }).cases;
	}

	/** The case's answer as a sandbox fault on that call only (a file's text as the body). */
	faultOf(entry: FieldCase<Expect>, operation: string, callId: string): Fault {
		const { file, ...answer } = entry.answer;
		const text =
			file === undefined ? answer.text : readFileSync(new URL(file, this.folder), 'utf8');
		const body =
			typeof text !== 'string'
				? {}
				: answer.kind === 'notAudio'
					? { text }
					: { text, bytes: Buffer.byteLength(text) };
		return {
			...answer,
			...body,
			operation,
			callId,
			count: entry.times === 'once' ? 1 : 99,
		} as Fault;
	}
}

export const heldIn = (data: IDataObject | undefined) => (data?.heldRecords ?? []) as IDataObject[];

/** The held calls as they would read `ms` later (their times that much earlier). */
export function age(data: IDataObject | undefined, ms: number): void {
	for (const held of heldIn(data)) {
		held.heldSince = Number(held.heldSince) - ms;
		held.nextTry = Number(held.nextTry) - ms;
	}
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An item's error field (`recordingError`, …) as the case expects it: the words and the code. */
export function checkError(
	error: IDataObject,
	expect: { error?: string; errorDescription?: string; errorCode?: number },
): void {
	assert.match(String(error.error), new RegExp(escape(expect.error ?? '')));
	assert.match(String(error.errorDescription), new RegExp(escape(expect.errorDescription ?? '')));
	if (expect.errorCode !== undefined) assert.equal(error.errorCode, expect.errorCode);
}
