/**
 * The trigger's parameters: which call records start the workflow and what they carry, as the
 * editor shows them, and as one poll reads and checks them (`readSettings`).
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	INodeProperties,
	IPollFunctions,
} from 'n8n-workflow';

import { parameterHints } from '../shared/builderHints';
import { CALL_STATUSES } from '../shared/callFields';
import { InputChecks } from '../shared/checks';
import {
	SERVICE_TIME_ZONE,
	isEmptyDate,
	serviceTime,
	serviceZone,
	toDateTime,
} from '../shared/dates';
import { checkPhoneList, phoneForms } from '../shared/phones';
import { recordingFormatField } from '../shared/recordings';
import { VIRTUALNUM_CREDENTIAL } from '../shared/transport/virtualnumApi';

/** Records read per poll: a backlog larger than this comes over the next polls, in order. */
const PAGE_SIZE = { min: 1, max: 1000, default: 100 };

/** Minutes a record waits for its recording (Include → Recording): integrators look for 30 at most. */
const HOLD_MINUTES = { min: 1, max: 60, default: 10 };

/** Seconds to wait for cdr_query: the statement is keyed on the row id and LIMITed, so it is light. */
const TIMEOUT_SEC = { min: 1, max: 600, default: 120 };

export const properties: INodeProperties[] = [
	{
		displayName:
			'Each poll reads the call records added since the last one from the service (cdr_query), oldest first, ' +
			'so nothing needs a public URL. The first activation starts after the newest record, or from Start From.',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Virtual Numbers',
		name: 'virtualNumbers',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0722000100, +972 72-200-0101',
		description:
			'Only calls to these numbers (comma-separated, local or international form); empty for every number of the account',
		builderHint: parameterHints.callRecordNumbers,
	},
	{
		displayName: 'Caller Numbers',
		name: 'callerNumbers',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0501234567',
		description: 'Only calls from these numbers (comma-separated); empty for every caller',
	},
	{
		displayName: 'Answered Calls Only',
		name: 'answeredOnly',
		type: 'boolean',
		default: false,
		description: 'Whether to start the workflow only for answered calls (status ANSWER)',
	},
	{
		displayName: 'Call Statuses',
		name: 'statuses',
		type: 'multiOptions',
		options: CALL_STATUSES,
		default: [],
		description: 'Only calls with one of these statuses; none selected for every status',
		displayOptions: { show: { answeredOnly: [false] } },
	},
	{
		displayName: 'With Recording Only',
		name: 'recordingOnly',
		type: 'boolean',
		default: false,
		description:
			'Whether to start the workflow only for calls that have a recording to download (the service checks each record)',
	},
	{
		displayName: 'Include',
		name: 'include',
		type: 'multiOptions',
		options: [
			{
				name: 'Metadata',
				value: 'metadata',
				description: 'The pixel and ads sections of the call (get_cdr_metadata_by_call_uuid)',
			},
			{
				name: 'Recording',
				value: 'recording',
				description:
					'The recording as binary data. An answered call waits until its recording exists, up to ' +
					'Hold Back Up To; recordingStatus says what came.',
			},
			{
				name: 'Transcript',
				value: 'transcript',
				description: 'The text and turns of the call, when the account has speech recognition',
			},
		],
		default: [],
		description:
			'What to add to each call record, read from the service before the record is emitted',
	},
	{
		...recordingFormatField,
		displayName: 'Recording Format',
		name: 'recordingFormat',
		displayOptions: { show: { include: ['recording'] } },
	},
	{
		displayName: 'Hold Back Up To (Minutes)',
		name: 'holdBackMinutes',
		type: 'number',
		typeOptions: { minValue: HOLD_MINUTES.min, maxValue: HOLD_MINUTES.max },
		default: 10,
		description:
			'An answered call whose recording is not written yet, or whose download failed in a way that may ' +
			'pass, is asked for again when it has waited 30 s, 1, 2, 4, 8, 16 minutes, then every 15, and ' +
			'emitted once the recording comes, or after this long without it (recordingStatus says which). ' +
			'Later calls are not held up by it.',
		displayOptions: { show: { include: ['recording'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Max Records per Poll',
				name: 'maxRecords',
				type: 'number',
				typeOptions: { minValue: PAGE_SIZE.min, maxValue: PAGE_SIZE.max },
				default: 100,
				description:
					'How many call records one poll reads at most. ' +
					'A larger backlog (e.g. after n8n was down) comes over the next polls, oldest first.',
			},
			{
				displayName: 'Service Time Zone',
				name: 'serviceTimeZone',
				type: 'string',
				default: '',
				placeholder: `From the credential (${SERVICE_TIME_ZONE} by default)`,
				description:
					"The time zone the service writes call times in, when it is not the credential's Service " +
					'Time Zone. Call times in the output are as the service wrote them (startTime) and with ' +
					'its offset (startedAt).',
			},
			{
				displayName: 'Start From',
				name: 'startFrom',
				type: 'dateTime',
				default: '',
				description:
					"Emit the calls that started from this time on (on the service's clock unless it has an " +
					'offset), also those before the activation. ' +
					'Empty: from the first activation on. Changing it starts over from the new time.',
			},
			{
				displayName: 'Timeout (Seconds)',
				name: 'timeout',
				type: 'number',
				typeOptions: { minValue: TIMEOUT_SEC.min, maxValue: TIMEOUT_SEC.max },
				default: 120,
				description: 'How long to wait for the service on each poll',
			},
		],
	},
];

export interface RecordFilters {
	statuses: string[];
	virtualNumbers: string[];
	callerNumbers: string[];
}

export interface Settings {
	filters: RecordFilters;
	recordingOnly: boolean;
	limit: number;
	timeoutMs: number;
	/** Start From as the service writes it, when set. */
	startFrom?: string;
	/**
	 * Start From as saved in the workflow (an expression unresolved): the cursor is made for it, and
	 * starts over only when the user changes it, not when `{{ $now }}` moves or a zone changes.
	 */
	startFromSetting: string;
	zone: string;
	include: Include;
	/** The credential, read once for the poll and passed to each of its requests (not enumerable). */
	credentials: ICredentialDataDecryptedObject;
}

/** What Include adds to each record; `holdMs` only with the recording. */
interface Include {
	recording?: { format: 'wav' | 'mp3'; holdMs: number };
	transcript: boolean;
	metadata: boolean;
}

function numbers(checks: InputChecks, field: string, value: unknown): string[] {
	if (String(value ?? '').trim() === '') return [];
	return [...new Set(checkPhoneList(checks, field, value).flatMap((digits) => phoneForms(digits)))];
}

function optionInRange(
	checks: InputChecks,
	name: string,
	value: unknown,
	range: { min: number; max: number; default: number },
): number {
	return value === undefined
		? range.default
		: checks.integerInRange(name, value, range.min, range.max);
}

function readInclude(this: IPollFunctions, checks: InputChecks): Include {
	const include = this.getNodeParameter('include', []) as string[];
	const recording = include.includes('recording')
		? {
				format: checks.oneOf(
					'Recording Format',
					String(this.getNodeParameter('recordingFormat', 'wav')),
					['wav', 'mp3'] as const,
				),
				holdMs:
					60_000 *
					optionInRange(
						checks,
						'Hold Back Up To (Minutes)',
						this.getNodeParameter('holdBackMinutes', HOLD_MINUTES.default),
						HOLD_MINUTES,
					),
			}
		: undefined;
	return {
		recording,
		transcript: include.includes('transcript'),
		metadata: include.includes('metadata'),
	};
}

/**
 * The service's clock: the credential's Service Time Zone, or the node's option when set. Start
 * From on it: a text without an offset is read in it, a point in time is converted into it.
 */
export async function readSettings(this: IPollFunctions): Promise<Settings> {
	const checks = new InputChecks(this.getNode(), 0);
	const options = this.getNodeParameter('options', {}) as IDataObject;
	const answeredOnly = this.getNodeParameter('answeredOnly', false) as boolean;
	const credentials = await this.getCredentials(VIRTUALNUM_CREDENTIAL);
	const zone = serviceZone(checks, options.serviceTimeZone, credentials.serviceTimeZone);
	const virtualNumbers = this.getNodeParameter('virtualNumbers', '');
	const settings = {
		filters: {
			statuses: answeredOnly ? ['ANSWER'] : (this.getNodeParameter('statuses', []) as string[]),
			virtualNumbers: numbers(checks, 'Virtual Numbers', virtualNumbers),
			callerNumbers: numbers(checks, 'Caller Numbers', this.getNodeParameter('callerNumbers', '')),
		},
		recordingOnly: this.getNodeParameter('recordingOnly', false) as boolean,
		limit: optionInRange(checks, 'Max Records per Poll', options.maxRecords, PAGE_SIZE),
		timeoutMs: 1000 * optionInRange(checks, 'Timeout (Seconds)', options.timeout, TIMEOUT_SEC),
		startFrom: isEmptyDate(options.startFrom)
			? undefined
			: serviceTime(toDateTime(options.startFrom, zone, 'Start From', checks), zone),
		startFromSetting: String(
			(this.getNode().parameters.options as IDataObject | undefined)?.startFrom ?? '',
		).trim(),
		zone,
		include: readInclude.call(this, checks),
	};
	// Not enumerable: the settings never carry the access token into anything printed or copied.
	return Object.defineProperty(settings, 'credentials', { value: credentials }) as Settings;
}
