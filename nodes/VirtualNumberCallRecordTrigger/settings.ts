/** The trigger's parameters as one poll reads and checks them. */
import type { ICredentialDataDecryptedObject, IDataObject, IPollFunctions } from 'n8n-workflow';

import { InputChecks } from '../shared/checks';
import { isEmptyDate, serviceTime, serviceZone, toDateTime } from '../shared/dates';
import { checkPhoneList, phoneForms } from '../shared/phones';
import { VIRTUALNUM_CREDENTIAL } from '../shared/transport/virtualnumApi';
import { HOLD_MINUTES, PAGE_SIZE, TIMEOUT_SEC } from './description';
import type { RecordFilters } from './statement';

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
