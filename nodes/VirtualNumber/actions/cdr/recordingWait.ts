/**
 * Wait for Recording of Download Recording: the recording is written some seconds after the call
 * ends (observed in the field), and until then get_record_by_call_uuid answers 3002, the code of a
 * call without a recording. With a wait set, 3002 is asked again until the wait has passed.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { asNodeError, serviceCodeOf } from '../../../shared/errors';
import type { VirtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { virtualnumDownload } from '../../../shared/transport/virtualnumDownload';

/** get_record_by_call_uuid's "no recording exists for this call": also "not written yet". */
const NO_RECORDING_CODE = 3002;

/** Up to 15 minutes; 0 (the default) asks once, as before the option existed. */
const WAIT_SEC = { min: 0, max: 900 };
/** Pauses between tries: 1 s, doubling up to 10 s (a recording is late by seconds, an archive by more). */
const PAUSE_MS = { min: 1000, max: 10_000 };

export const waitForRecordingOption: INodeProperties = {
	displayName: 'Wait for Recording (Seconds)',
	name: 'waitForRecordingSec',
	type: 'number',
	typeOptions: { minValue: WAIT_SEC.min, maxValue: WAIT_SEC.max },
	default: 0,
	description:
		'The recording is written some seconds after the call ends. While the service answers that ' +
		'it does not exist (code 3002), ask again until this many seconds have passed. 0: ask once.',
};

/** The option in seconds, checked. */
export function readRecordingWait(checks: InputChecks, value: unknown): number {
	if (value === undefined) return 0;
	return checks.integerInRange('Wait for Recording (Seconds)', value, WAIT_SEC.min, WAIT_SEC.max);
}

type Download = Awaited<ReturnType<typeof virtualnumDownload>>;

/** The download, asked again while the recording does not exist yet and the wait allows. */
export async function downloadWhenRecorded(
	this: IExecuteFunctions,
	request: VirtualnumRequest,
	waitSec: number,
): Promise<Download> {
	const started = Date.now();
	for (let tries = 1; ; tries++) {
		try {
			return await virtualnumDownload.call(this, request);
		} catch (error) {
			if (waitSec === 0 || serviceCodeOf(error) !== NO_RECORDING_CODE)
				throw asNodeError(this.getNode(), error, request.itemIndex);
			const left = waitSec * 1000 - (Date.now() - started);
			if (left <= 0) throw notRecordedWithin(this, request, error as Error, started, tries);
			await sleep(Math.min(PAUSE_MS.min * 2 ** (tries - 1), PAUSE_MS.max, left));
		}
	}
}

function notRecordedWithin(
	context: IExecuteFunctions,
	request: VirtualnumRequest,
	error: Error,
	started: number,
	tries: number,
): NodeOperationError {
	const seconds = Math.round((Date.now() - started) / 1000);
	return new NodeOperationError(
		context.getNode(),
		`No recording of call ${String(request.params?.call_uuid)} after waiting ${seconds} s ` +
			`(${tries} tries): the service still says it does not exist (code ${NO_RECORDING_CODE})`,
		{
			itemIndex: request.itemIndex,
			description:
				'Only recorded calls have a file (see the record percentage of the number). If this call ' +
				'was recorded, raise Wait for Recording (Seconds). ' +
				`The service said: ${error.message}`,
		},
	);
}
