/**
 * The speech_recognition section of a call's metadata as plain text and as turns, for Get
 * Metadata, Get Transcript and the Call Record Trigger's Include → Transcript. The contract does
 * not show the section's inner fields, so the common shapes of speech-to-text answers are read: a
 * text, a `transcript` text, or a list of turns (segments, utterances, …) each with its text and,
 * where present, its speaker and start and end times. A turn becomes one line of the text:
 * `[0:03-0:05] agent: Sure, how can I help?`.
 */
import type { IDataObject } from 'n8n-workflow';

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

/** One turn of the conversation: its text and, where the service gives them, speaker and times. */
interface TranscriptTurn extends IDataObject {
	text: string;
	speaker?: string;
	start?: string;
	end?: string;
}

function turnOf(entry: unknown): TranscriptTurn | undefined {
	if (typeof entry === 'string') return entry.trim() === '' ? undefined : { text: entry.trim() };
	if (!isObject(entry)) return undefined;
	const text = firstValue(entry, TEXT_KEYS);
	if (text === undefined) return undefined;
	const turn: TranscriptTurn = { text };
	const speaker = firstValue(entry, SPEAKER_KEYS);
	const start = timeText(firstValue(entry, START_KEYS));
	const end = timeText(firstValue(entry, END_KEYS));
	if (speaker !== undefined) turn.speaker = speaker;
	if (start !== undefined) turn.start = start;
	if (end !== undefined) turn.end = end;
	return turn;
}

function lineOf(turn: TranscriptTurn): string {
	const { start, end, speaker, text } = turn;
	const when = start === undefined ? '' : `[${start}${end === undefined ? '' : `-${end}`}] `;
	return `${when}${speaker === undefined ? '' : `${speaker}: `}${text}`;
}

function turnsOf(list: unknown[]): TranscriptTurn[] {
	return list.map(turnOf).filter((turn): turn is TranscriptTurn => turn !== undefined);
}

function linesOf(list: unknown[]): string | undefined {
	const lines = turnsOf(list).map(lineOf);
	return lines.length > 0 ? lines.join('\n') : undefined;
}

/** The section's turns (an empty list when it is one text, or has none). */
export function transcriptTurns(section: unknown): TranscriptTurn[] {
	if (Array.isArray(section)) return turnsOf(section);
	if (!isObject(section)) return [];
	for (const key of LIST_KEYS) {
		const list = section[key];
		const turns = Array.isArray(list) ? turnsOf(list) : [];
		if (turns.length > 0) return turns;
	}
	return [];
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
