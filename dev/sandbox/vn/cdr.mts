// Call data: cdr_query (guarded SQL over sql.js), the per-caller report, recordings, call metadata
// and manual call records.
import { mp3Chunks, wavChunks, wavSize } from '../audio.mts';
import type { State } from '../state.mts';
import { isIsraeliNumber, parseDateTime, formatDateTime, digitsOnly } from '../util.mts';
import type { CdrRow } from './cdrstore.mts';
import { fireCallCallbacks } from './calls.mts';
import { ServiceError, findNumber } from './common.mts';
import type { OpHandler } from './common.mts';
import { guardSql } from './sqlguard.mts';

const cdrQuery: OpHandler = ({ state, params }) => {
	const sql = params.raw('sql') ?? '';
	if (sql.trim() === '') throw new ServiceError(1011, 'sql is required');
	const guard = guardSql(sql);
	if (!guard.ok)
		throw new ServiceError(
			guard.code,
			guard.code === 1012 ? `Statement rejected: ${guard.reason}` : guard.reason,
		);
	let columns: string[];
	let values: unknown[][];
	try {
		const results = state.cdr.db.exec(guard.sql);
		if (results.length === 0) throw new ServiceError(1013, 'No results');
		({ columns, values } = results[0]);
	} catch (error) {
		if (error instanceof ServiceError) throw error;
		throw new ServiceError(1013, `Invalid statement: ${(error as Error).message}`);
	}
	if (values.length === 0) throw new ServiceError(1013, 'No results');
	const rows = values.map((row) => {
		const object: Record<string, unknown> = {};
		columns.forEach((column, i) => {
			object[column] = row[i];
		});
		if (guard.wantsRecordFlag) {
			const id = object.__sandbox_row_id;
			delete object.__sandbox_row_id;
			// the service empties record_file_exists where no recording file exists
			if (typeof id !== 'number' || !state.cdr.recordings.has(id)) object.record_file_exists = '';
		}
		return object;
	});
	return { result: rows };
};

const cdrSubuniqueQuery: OpHandler = ({ state, params }) => {
	const start = parseDateTime(params.str('start_time'));
	if (!start) throw new ServiceError(1001, 'start_time is required in the format Y-m-d H:i:s');
	const end = parseDateTime(params.str('end_time'));
	if (!end) throw new ServiceError(1002, 'end_time is required in the format Y-m-d H:i:s');
	const rows = state.cdr.select(
		`SELECT cdr_ani, COUNT(*) AS calls_count, SUM(call_duration) AS total_duration,
			MIN(start_call) AS first_call, MAX(start_call) AS last_call
		FROM webserviceview
		WHERE call_status = 'ANSWER' AND start_call >= ? AND start_call <= ?
		GROUP BY cdr_ani ORDER BY calls_count DESC, cdr_ani LIMIT 2000`,
		[formatDateTime(start), formatDateTime(end)],
	);
	if (rows.length === 0) throw new ServiceError(1003, 'No results');
	return { result: rows };
};

export function findCall(state: State, uuid: string): CdrRow | undefined {
	return state.cdr.byUuid(uuid);
}

const getRecordByCallUuid: OpHandler = ({ core, state, params }) => {
	const uuid = params.str('call_uuid');
	if (uuid === '') throw new ServiceError(3001, 'call_uuid is required');
	const row = findCall(state, uuid);
	if (!row || !state.cdr.recordings.has(row.id))
		throw new ServiceError(3002, `No recording exists for the call ${uuid}`);
	// Field: the file is written some seconds after the call ends, and until then it does not exist.
	const endedAt = state.callEndedAt.get(row.id);
	if (core.is('recording-delay') && endedAt !== undefined) {
		if (Date.now() < endedAt + core.field.recordingDelayMs)
			throw new ServiceError(3002, `Recording does not exist: ${uuid}`);
	}
	const bytes = state.recordingBytes;
	if (params.str('type').toLowerCase() === 'mp3') {
		const length = Math.max(bytes, 14);
		return {
			raw: {
				contentType: 'audio/mpeg',
				length,
				chunks: () => mp3Chunks(length),
				filename: `${uuid}.mp3`,
			},
		};
	}
	const frequency = 300 + (row.id % 20) * 25;
	return {
		raw: {
			contentType: 'audio/wav',
			length: wavSize(bytes),
			chunks: () => wavChunks(bytes, frequency),
			filename: `${uuid}.wav`,
		},
	};
};

const KEYWORDS = ['call now', 'best price', 'near me', 'open today', 'free quote'];

/** Metadata sections, each present only when the call has such data. */
export function callMetadata(state: State, row: CdrRow): Record<string, unknown> {
	const sections: Record<string, unknown> = { cdr: { ...row } };
	if (row.cdr_meta_data) {
		try {
			sections.pixel_data = JSON.parse(row.cdr_meta_data);
		} catch {
			sections.pixel_data = { raw: row.cdr_meta_data };
		}
	}
	if (row.gclid) {
		sections.ads_data = {
			gclid: row.gclid,
			platform: 'google_ads',
			campaign_id: String(1000 + (row.id % 17)),
			campaign_name: `Campaign ${1 + (row.id % 17)}`,
			ad_group: `Ad group ${1 + (row.id % 5)}`,
			keyword: KEYWORDS[row.id % KEYWORDS.length],
			click_time: row.start_call,
		};
		if (row.id % 3 === 0) {
			sections.ads_call_extension_data = {
				call_extension: 1,
				ad_call_duration: row.call_duration,
				call_type: 'mobile_click_to_call',
			};
		}
	}
	if (state.account.speechRecognition && state.cdr.recordings.has(row.id)) {
		const words = {
			caller: `Hello, I am calling about ${row.user_name}.`,
			agent: 'Sure, how can I help?',
			again: `Could you call me back at ${row.cdr_ani}?`,
		};
		sections.speech_recognition = {
			language: 'he-IL',
			confidence: 0.87,
			transcript: `${words.caller} ${words.again}`,
		};
		// Inner fields are not shown by the contract: even rows also carry speaker turns with times.
		if (row.id % 2 === 0) {
			(sections.speech_recognition as Record<string, unknown>).segments = [
				{ speaker: 'caller', start: 0.4, end: 3.1, text: words.caller },
				{ speaker: 'agent', start: 3.6, end: 5.2, text: words.agent },
				{ speaker: 'caller', start: 65.5, end: 68.25, text: words.again },
			];
		}
	}
	return sections;
}

const getCdrMetadataByCallUuid: OpHandler = ({ state, params }) => {
	const uuid = params.str('call_uuid');
	if (uuid === '') throw new ServiceError(1014, 'call_uuid is required');
	const row = findCall(state, uuid);
	if (!row) throw new ServiceError(1015, 'No results');
	return { result: callMetadata(state, row) };
};

const createVirtualnumCdr: OpHandler = ({ core, state, params }) => {
	const ddi = params.str('cdr_ddi');
	const record = ddi === '' ? undefined : findNumber(state, ddi);
	if (!record)
		throw new ServiceError(
			2028,
			ddi === '' ? 'cdr_ddi is required' : `cdr_ddi ${ddi} is not a number of the account`,
		);
	let start = new Date();
	if (params.filled('cdr_start_call')) {
		const parsed = parseDateTime(params.str('cdr_start_call'));
		if (!parsed) throw new ServiceError(2022, 'cdr_start_call must be in the format Y-m-d H:i:s');
		start = parsed;
	}
	let seconds = 0;
	if (params.filled('cdr_totac_sec')) {
		const value = params.int('cdr_totac_sec');
		if (value === undefined || Number.isNaN(value) || value < 1 || value > 3599)
			throw new ServiceError(2024, 'cdr_totac_sec must be a number from 1 to 3599');
		seconds = value;
	}
	const ani = params.str('cdr_ani');
	if (ani !== '' && !isIsraeliNumber(ani))
		throw new ServiceError(2027, 'cdr_ani must be a valid Israeli number');
	const destination = params.str('cdr_destination');
	if (destination !== '' && !isIsraeliNumber(destination))
		throw new ServiceError(2028, 'cdr_destination must be a valid Israeli number');
	const metadata = params.str('cdr_metadata');
	if (metadata !== '') {
		try {
			JSON.parse(metadata);
		} catch {
			throw new ServiceError(2029, 'cdr_metadata must be a valid JSON string');
		}
	}
	const row = state.cdr.insert(
		{
			start_call: formatDateTime(start),
			end_call: formatDateTime(new Date(start.getTime() + seconds * 1000)),
			call_duration: seconds,
			cdr_ani: digitsOnly(ani),
			cdr_ddi: record.virtualnum,
			user_phone: destination !== '' ? digitsOnly(destination) : record.default_dest,
			user_name: record.description,
			call_status: seconds > 0 ? 'ANSWER' : 'NOANSWER',
			onetouch: '',
			cdr_meta_data: metadata,
			gclid: '',
		},
		false,
	);
	// End-of-call automation runs as for a real call: the number's end callback fires.
	void fireCallCallbacks(core, record, row, ['call.end']);
	return { result: { cdr_uniqueid: row.cdr_uniqueid } };
};

export const cdrOps: Record<string, OpHandler> = {
	cdr_query: cdrQuery,
	cdr_subunique_query: cdrSubuniqueQuery,
	get_record_by_call_uuid: getRecordByCallUuid,
	get_cdr_metadata_by_call_uuid: getCdrMetadataByCallUuid,
	create_virtualnum_cdr: createVirtualnumCdr,
};
