/** What the call-record operations share: the Timeout option of heavy requests and the Call ID field. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { LIMITS, type InputChecks } from '../../../shared/checks';

export const timeoutOption: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: LIMITS.longTimeoutSec.min, maxValue: LIMITS.longTimeoutSec.max },
	default: 600, // LIMITS.longTimeoutSec.default: the spec's 10-minute run time
	description: `How long to wait for the service. Heavy requests and recordings fetched from the archive may take up to 10 minutes (the default, ${LIMITS.longTimeoutSec.default} s).`,
};

/** The Timeout option in milliseconds. */
export function timeoutMs(options: IDataObject, checks: InputChecks): number {
	const seconds =
		options.timeout === undefined
			? LIMITS.longTimeoutSec.default
			: checks.integerInRange('Timeout (Seconds)', options.timeout, LIMITS.longTimeoutSec.min, LIMITS.longTimeoutSec.max);
	return seconds * 1000;
}

export const callUuidField: INodeProperties = {
	displayName: 'Call ID',
	name: 'callUuid',
	type: 'string',
	required: true,
	default: '',
	placeholder: 'e.g. 1714557600.123',
	description: 'The callId of the call, as Query, Create Manual Record and the Virtual Number Trigger output it (the service calls it call_uuid or cdr_uniqueid)',
};
