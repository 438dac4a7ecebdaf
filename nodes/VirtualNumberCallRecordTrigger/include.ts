/**
 * What Include adds to a record, asked of the service for one call: the recording
 * (get_record_by_call_uuid) and the transcript and metadata (one get_cdr_metadata_by_call_uuid),
 * and what came of each, as the item says it (`recordingStatus`, `transcriptStatus`,
 * `metadataStatus`; docs/call-record-trigger.md has the table).
 *
 * One rule for every part: a request for one call that fails is that call's failure, never the
 * poll's. A failure that asking again may cure (and a recording not written yet) may hold the call
 * (poll.ts); any other is emitted at once with the status saying why. Only a refusal of the
 * credential or of n8n's IP fails the poll: it is no call's, and the next poll reads the same calls.
 */
import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';

import { MB } from '../shared/checks';
import { asNodeError, errorItemJson, serviceCodeOf, type NodeError } from '../shared/errors';
import { recordingBinary } from '../shared/recordings';
import {
	INTERNAL_ERROR_CODE,
	NO_METADATA_CODE,
	NO_RECORDING_CODE,
	RATE_LIMITED_CODE,
	SUCCESS_CODE,
	UNAUTHORIZED_CODE,
} from '../shared/statusCodes';
import { SPEECH_SECTION, transcriptText, transcriptTurns } from '../shared/transcript';
import {
	virtualnumBoundedRequest,
	virtualnumDownload,
} from '../shared/transport/virtualnumDownload';
import type { Settings } from './description';
import { NOT_MOVED } from './statement';

/**
 * What came of one part: `included`; `none` (there is none: a call not answered has no recording,
 * a call without speech recognition no transcript); `notYet` (a recording not written when the
 * call could not be held); `notFound` (still not written when Hold Back Up To ended); `tooLarge`;
 * `notAudio` (a recording answered with something else) and `unreadable` (a metadata answer that
 * is not the service's JSON), at once; `unavailable` (the service refused the call's part, or
 * failed in a way that may pass until the hold ended), with the service's answer as the error.
 */
type PartStatus =
	| 'included'
	| 'none'
	| 'notYet'
	| 'notFound'
	| 'tooLarge'
	| 'notAudio'
	| 'unreadable'
	| 'unavailable';

interface Part<T> {
	status: PartStatus;
	/** The recording as binary data, or the metadata sections. */
	value?: T;
	error?: NodeError;
	/** With tooLarge: the size the answer announced, null when it announced none. */
	bytes?: number | null;
	/** Not written yet, or a failure that asking again may cure. */
	mayPass?: boolean;
}

/** What Include asked for one call: the recording, and the sections transcript and metadata read. */
export interface Included {
	recording?: Part<IBinaryData>;
	sections?: Part<IDataObject>;
}

/** A call Include asks about: its ids, when the trigger first read it, whether it was answered. */
export interface Call {
	rowId: string;
	callId: string;
	heldSince: number;
	/** false: not answered, so it has no recording (absent: answered). */
	answered?: false;
}

/**
 * A metadata answer carries the call's transcript: a two-hour call's, with word timings, is about
 * 1.5 MB. Past this the answer is a runaway, not put into the item (docs/contract-gaps.md).
 */
const METADATA_MAX_BYTES = 5 * MB;

/** The metadata sections Include → Metadata passes on (speech_recognition goes to the transcript). */
const METADATA_SECTIONS = ['pixel_data', 'ads_data', 'ads_call_extension_data'];

const isObject = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * A failed request for one call's part, by whether asking again can help: the one reading of a
 * call's failure. `whole`: the status of an answer that came whole but is not what was asked for
 * (an HTML page, a text, nothing, cut-off JSON): asking again gives the same.
 */
function failedPart(node: INode, thrown: unknown, whole: PartStatus): Part<never> {
	const error = asNodeError(node, thrown);
	const code = serviceCodeOf(error);
	const http = Number((error as { httpCode?: string | null }).httpCode) || undefined;
	const data = (error.context.data ?? {}) as IDataObject;
	if (http === UNAUTHORIZED_CODE) {
		error.description = `${error.description ?? ''} ${NOT_MOVED}`.trim();
		throw error;
	}
	if (data.maxBytes !== undefined) {
		const bytes = typeof data.announcedBytes === 'number' ? data.announcedBytes : null;
		return { status: 'tooLarge', error, bytes };
	}
	if (
		data.networkCode !== undefined ||
		http === RATE_LIMITED_CODE ||
		(http !== undefined && http >= 500) ||
		code === INTERNAL_ERROR_CODE
	)
		return { status: 'unavailable', error, mayPass: true };
	// The service refused this call's part (a status, an HTTP error such as 404).
	const refused = (code !== undefined && code !== SUCCESS_CODE) || http !== undefined;
	return { status: refused ? 'unavailable' : whole, error };
}

async function askRecording(
	this: IPollFunctions,
	call: Call,
	settings: Settings,
): Promise<Part<IBinaryData>> {
	if (call.answered === false) return { status: 'none' };
	try {
		const file = await virtualnumDownload.call(this as unknown as IExecuteFunctions, {
			service: 'get_record_by_call_uuid',
			params: { call_uuid: call.callId, type: settings.include.recording?.format ?? 'wav' },
			timeoutMs: settings.timeoutMs,
			credentials: settings.credentials,
		});
		const { binary } = await recordingBinary.call(this, file, call.callId);
		return { status: 'included', value: binary };
	} catch (error) {
		if (serviceCodeOf(error) === NO_RECORDING_CODE) return { status: 'notYet', mayPass: true };
		return failedPart(this.getNode(), error, 'notAudio');
	}
}

/** The call's metadata sections; none when the service has no metadata for it (1015). */
async function askSections(
	this: IPollFunctions,
	call: Call,
	settings: Settings,
): Promise<Part<IDataObject>> {
	try {
		const answer = await virtualnumBoundedRequest.call(this as unknown as IExecuteFunctions, {
			service: 'get_cdr_metadata_by_call_uuid',
			params: { call_uuid: call.callId },
			timeoutMs: settings.timeoutMs,
			credentials: settings.credentials,
			maxBytes: METADATA_MAX_BYTES,
		});
		const result = Array.isArray(answer.result) ? answer.result[0] : answer.result;
		return { status: 'included', value: isObject(result) ? result : {} };
	} catch (error) {
		if (serviceCodeOf(error) === NO_METADATA_CODE) return { status: 'included', value: {} };
		return failedPart(this.getNode(), error, 'unreadable');
	}
}

/** Whether Include asks the service anything about a call. */
export function includesAny(settings: Settings): boolean {
	const { recording, transcript, metadata } = settings.include;
	return Boolean(recording) || transcript || metadata;
}

/** The call Include asks about for this record: none without a call ID, or nothing to ask. */
export function callOf(json: IDataObject, rowId: string, settings: Settings): Call | undefined {
	const answered = json.callStatus === 'ANSWER';
	const { recording, transcript, metadata } = settings.include;
	if (json.callId === null || !((recording && answered) || transcript || metadata))
		return undefined;
	const call: Call = { rowId, callId: String(json.callId), heldSince: Date.now() };
	return answered ? call : { ...call, answered: false };
}

/** What Include gives a record it asks nothing about (no call ID, or a recording of a call not answered). */
export function nothingAsked(settings: Settings): Included {
	const { recording, transcript, metadata } = settings.include;
	const included: Included = {};
	if (recording) included.recording = { status: 'none' };
	if (transcript || metadata) included.sections = { status: 'none' };
	return included;
}

/**
 * One try of every part Include asks for. `hold` says after each part whether the call is held for
 * it: then the next part is not asked, and the hold is the answer. The metadata comes first: a
 * small answer, so a call held for it has not downloaded its recording in vain (a recording is
 * downloaded once everything before it came).
 */
export async function askIncluded<Hold>(
	this: IPollFunctions,
	call: Call,
	settings: Settings,
	hold: (part: Part<unknown>) => Hold | undefined,
): Promise<Included | Hold> {
	const { recording, transcript, metadata } = settings.include;
	const included: Included = {};
	if (transcript || metadata) {
		included.sections = await askSections.call(this, call, settings);
		const held = hold(included.sections);
		if (held !== undefined) return held;
	}
	if (recording) {
		included.recording = await askRecording.call(this, call, settings);
		const held = hold(included.recording);
		if (held !== undefined) return held;
	}
	return included;
}

/** A part no longer held: a recording still not written after the hold is `notFound`. */
export function afterHold(included: Included): Included {
	return included.recording?.status === 'notYet'
		? { ...included, recording: { status: 'notFound' } }
		: included;
}

/** `<part>Status`, and with it `<part>Bytes` (tooLarge), `<part>Error`, `<part>HeldSec` (when held). */
function writeStatus(
	json: IDataObject,
	name: 'recording' | 'transcript' | 'metadata',
	part: Part<unknown>,
	heldMs?: number,
): void {
	json[`${name}Status`] = part.status;
	if (part.status === 'tooLarge') json[`${name}Bytes`] = part.bytes ?? null;
	if (part.error) json[`${name}Error`] = errorItemJson(part.error);
	if (heldMs !== undefined) json[`${name}HeldSec`] = Math.round(heldMs / 1000);
}

/** `transcript` (text) and `transcriptTurns`: null when none; `included` only with text. */
function writeTranscript(json: IDataObject, sections: Part<IDataObject>, heldMs?: number) {
	const section = sections.value?.[SPEECH_SECTION];
	const text = transcriptText(section);
	json.transcript = text ?? null;
	json.transcriptTurns = section === undefined ? null : transcriptTurns(section);
	const read = sections.status === 'included';
	writeStatus(
		json,
		'transcript',
		read && text === undefined ? { status: 'none' } : sections,
		heldMs,
	);
}

/** `metadata`: the pixel and ads sections the call has, null when none. */
function writeMetadata(json: IDataObject, sections: Part<IDataObject>, heldMs?: number) {
	const all = sections.value ?? {};
	const present = METADATA_SECTIONS.filter((name) => all[name] !== undefined);
	json.metadata = present.length === 0 ? null : Object.fromEntries(present.map((n) => [n, all[n]]));
	const read = sections.status === 'included';
	writeStatus(
		json,
		'metadata',
		read && present.length === 0 ? { status: 'none' } : sections,
		heldMs,
	);
}

/** The record as an item, with what Include brought: the recording as binary `data`, then the fields. */
export function itemOf(
	json: IDataObject,
	settings: Settings,
	included: Included,
	heldMs?: number,
): INodeExecutionData {
	const item: INodeExecutionData = { json };
	const { recording, sections } = included;
	if (recording) {
		if (recording.value) item.binary = { data: recording.value };
		writeStatus(json, 'recording', recording, heldMs);
	}
	if (sections && settings.include.transcript) writeTranscript(json, sections, heldMs);
	if (sections && settings.include.metadata) writeMetadata(json, sections, heldMs);
	return item;
}
