/**
 * Include: a record completed with its recording, transcript and metadata before it is emitted.
 * With the recording, an answered call whose recording does not exist yet is held: `complete`
 * answers undefined, and hold.ts keeps the record for a later poll until Hold Back Up To passes.
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPollFunctions,
} from 'n8n-workflow';

import { asNodeError, serviceCodeOf } from '../shared/errors';
import { recordingBinary } from '../shared/recordings';
import { NO_METADATA_CODE, NO_RECORDING_CODE } from '../shared/statusCodes';
import { SPEECH_SECTION, transcriptText, transcriptTurns } from '../shared/transcript';
import type { RequestContext } from '../shared/transport/http';
import { virtualnumRequest } from '../shared/transport/virtualnumApi';
import { virtualnumDownload } from '../shared/transport/virtualnumDownload';
import type { Held } from './cursor';
import { recordItem } from './records';
import type { Settings } from './settings';

/** The metadata sections Include → Metadata passes on (speech_recognition goes to the transcript). */
const METADATA_SECTIONS = ['pixel_data', 'ads_data', 'ads_call_extension_data'];

/** The recording, or undefined while the service says it does not exist (3002). */
async function recordingOf(this: IPollFunctions, callId: string, settings: Settings) {
	try {
		const file = await virtualnumDownload.call(this as unknown as IExecuteFunctions, {
			service: 'get_record_by_call_uuid',
			params: { call_uuid: callId, type: settings.include.recording?.format ?? 'wav' },
			timeoutMs: settings.timeoutMs,
			credentials: settings.credentials,
		});
		return await recordingBinary.call(this, file, callId);
	} catch (error) {
		if (serviceCodeOf(error) === NO_RECORDING_CODE) return undefined;
		throw asNodeError(this.getNode(), error);
	}
}

/** The call's metadata sections; none when the service has no metadata for it (1015). */
async function metadataOf(
	this: IPollFunctions,
	callId: string,
	settings: Settings,
): Promise<IDataObject> {
	try {
		const answer = await virtualnumRequest.call(this as unknown as RequestContext, {
			service: 'get_cdr_metadata_by_call_uuid',
			params: { call_uuid: callId },
			timeoutMs: settings.timeoutMs,
			credentials: settings.credentials,
		});
		const result = Array.isArray(answer.result) ? answer.result[0] : answer.result;
		return result !== null && typeof result === 'object' ? (result as IDataObject) : {};
	} catch (error) {
		if (serviceCodeOf(error) === NO_METADATA_CODE) return {};
		throw asNodeError(this.getNode(), error);
	}
}

/** `transcript` (text) and `transcriptTurns`, `metadata` (pixel and ads sections): null when none. */
async function addSections(this: IPollFunctions, json: IDataObject, settings: Settings) {
	const { transcript, metadata } = settings.include;
	if (!transcript && !metadata) return;
	const sections = await metadataOf.call(this, String(json.callId), settings);
	if (transcript) {
		const section = sections[SPEECH_SECTION];
		json.transcript = transcriptText(section) ?? null;
		json.transcriptTurns = section === undefined ? null : transcriptTurns(section);
	}
	if (metadata) {
		const present = METADATA_SECTIONS.filter((name) => sections[name] !== undefined);
		json.metadata =
			present.length === 0 ? null : Object.fromEntries(present.map((n) => [n, sections[n]]));
	}
}

/**
 * The record as an item with what Include asks for; undefined while its recording is not written
 * and the hold allows waiting (`now - since` below Hold Back Up To). `recordingStatus`: included,
 * notFound (none after holding, `recordingHeldSec` says how long) or notAnswered (no recording made).
 */
export async function complete(
	this: IPollFunctions,
	held: Held,
	settings: Settings,
	now: number,
): Promise<INodeExecutionData | undefined> {
	const json = recordItem(held.row, settings.zone);
	const item: INodeExecutionData = { json };
	const recording = settings.include.recording;
	if (recording && json.callStatus !== 'ANSWER') json.recordingStatus = 'notAnswered';
	else if (recording) {
		const file = await recordingOf.call(this, String(json.callId), settings);
		if (!file && now - held.since < recording.holdMs) return undefined;
		json.recordingStatus = file ? 'included' : 'notFound';
		if (file) item.binary = { data: file.binary };
		else if (Number.isFinite(held.since))
			json.recordingHeldSec = Math.round((now - held.since) / 1000);
	}
	await addSections.call(this, json, settings);
	return item;
}
