/**
 * The speech_recognition section of a call's metadata as plain text, for Get Metadata and Get
 * Transcript. The contract does not show the section's inner fields, so the common shapes of
 * speech-to-text answers are read: a text, a `transcript` text, or a list of turns (segments,
 * utterances, …) each with its text and, where present, its speaker and start and end times.
 * A turn becomes one line: `[0:03-0:05] agent: Sure, how can I help?`.
 */
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { readCallId, resultObject } from '../../helpers/utils';

export const SPEECH_SECTION = 'speech_recognition';

const LIST_KEYS = ['segments', 'utterances', 'turns', 'sentences', 'results', 'transcript'];
const TEXT_KEYS = ['text', 'transcript', 'sentence', 'content', 'utterance'];
const SPEAKER_KEYS = ['speaker', 'speaker_label', 'speaker_tag', 'role', 'side', 'channel'];
const START_KEYS = ['start', 'start_time', 'startTime', 'from', 'begin'];
const END_KEYS = ['end', 'end_time', 'endTime', 'to'];

function isObject(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The first of `keys` that holds a text or a number, as text. */
function firstValue(entry: IDataObject, keys: string[]): string | undefined {
	for (const key of keys) {
		const value = entry[key];
		if ((typeof value === 'string' && value.trim() !== '') || typeof value === 'number')
			return String(value).trim();
	}
	return undefined;
}

/** Seconds (a number, or digits) as `m:ss`; any other time text as it is. */
function timeText(value: string | undefined): string | undefined {
	if (value === undefined) return undefined;
	if (!/^\d+(\.\d+)?$/.test(value)) return value;
	const seconds = Math.floor(Number(value));
	return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function lineOf(entry: unknown): string {
	if (typeof entry === 'string') return entry.trim();
	if (!isObject(entry)) return '';
	const text = firstValue(entry, TEXT_KEYS);
	if (text === undefined) return '';
	const speaker = firstValue(entry, SPEAKER_KEYS);
	const start = timeText(firstValue(entry, START_KEYS));
	const end = timeText(firstValue(entry, END_KEYS));
	const when = start === undefined ? '' : `[${start}${end === undefined ? '' : `-${end}`}] `;
	return `${when}${speaker === undefined ? '' : `${speaker}: `}${text}`;
}

function linesOf(list: unknown[]): string | undefined {
	const lines = list.map(lineOf).filter((line) => line !== '');
	return lines.length > 0 ? lines.join('\n') : undefined;
}

/** The section as plain text; undefined when it holds no text. Turns win over a whole text. */
export function transcriptText(section: unknown): string | undefined {
	if (typeof section === 'string') return section.trim() || undefined;
	if (Array.isArray(section)) return linesOf(section);
	if (!isObject(section)) return undefined;
	for (const key of LIST_KEYS) {
		const list = section[key];
		const text = Array.isArray(list) ? linesOf(list) : undefined;
		if (text !== undefined) return text;
	}
	return firstValue(section, TEXT_KEYS);
}

/** The metadata with `transcript` beside its speech_recognition section (when it has text). */
export function withTranscript(metadata: IDataObject): IDataObject {
	const text = transcriptText(metadata[SPEECH_SECTION]);
	if (text === undefined) return metadata;
	const out: IDataObject = {};
	for (const [key, value] of Object.entries(metadata)) {
		out[key] = value;
		if (key === SPEECH_SECTION) out.transcript = text;
	}
	return out;
}

/** The call ID of the item (the Call ID field) and the call's metadata sections as the service gives them. */
export async function readCallMetadata(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<{ callId: string; metadata: IDataObject }> {
	const callId = readCallId.call(this, new InputChecks(this.getNode(), itemIndex));
	const answer = await virtualnumRequest.call(this, {
		service: 'get_cdr_metadata_by_call_uuid',
		params: { call_uuid: callId },
		itemIndex,
	});
	return { callId, metadata: resultObject(answer.result) };
}
