/** Fields the call-record operations share: the Timeout option of heavy requests, and its reading. */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { VN_LIMITS } from '../../../shared/limits';

/** Timeout option in seconds: up to an hour, by default the spec's run time of heavy requests (10 minutes). */
const TIMEOUT_SEC = { min: 1, max: 3600, default: VN_LIMITS.requestRunTimeMs / 1000 };

export const timeoutOption: INodeProperties = {
	displayName: 'Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: TIMEOUT_SEC.min, maxValue: TIMEOUT_SEC.max },
	default: 600, // TIMEOUT_SEC.default: the spec's 10-minute run time
	description:
		`How long to wait for the service. Heavy requests and recordings fetched ` +
		`from the archive may take up to 10 minutes (the default, ${TIMEOUT_SEC.default} ` +
		`s).`,
};

/** Options with the Timeout alone. */
export const timeoutOptions: INodeProperties = {
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [timeoutOption],
};

/** The Timeout option in milliseconds. */
export function timeoutMs(options: IDataObject, checks: InputChecks): number {
	const seconds =
		options.timeout === undefined
			? TIMEOUT_SEC.default
			: checks.integerInRange(
					'Timeout (Seconds)',
					options.timeout,
					TIMEOUT_SEC.min,
					TIMEOUT_SEC.max,
				);
	return seconds * 1000;
}
