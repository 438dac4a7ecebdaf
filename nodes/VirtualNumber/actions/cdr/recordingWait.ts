/**
 * Wait for Recording of Download Recording: the recording is written some seconds after the call
 * ends (observed in the field), and until then get_record_by_call_uuid answers 3002, the code of a
 * call without a recording. With a wait set, 3002 is asked again until the wait has passed.
 */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { asNodeError, serviceCodeOf } from '../../../shared/errors';
import { NO_RECORDING_CODE } from '../../../shared/statusCodes';
import type { RequestContext } from '../../../shared/transport/http';
import { virtualnumRequest, type VirtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { virtualnumDownload } from '../../../shared/transport/virtualnumDownload';
import { resultRows } from '../../../shared/virtualnums';

/**
 * Up to 15 minutes. Node version 1.2 waits 60 s by default: a recording is written some seconds
 * after its call ends, and a workflow started by the call's end asks for it at once. Earlier
 * versions keep 0 (ask once), so saved workflows fail and succeed as they did.
 */
const WAIT_SEC = { min: 0, max: 900, default: 60, defaultBefore1_2: 0 };
/** A call that ended this recently may have a recording the service has not written yet. */
const RECENT_SEC = 30 * 60;
/** Pauses between tries: 1 s, doubling up to 10 s (a recording is late by seconds, an archive by more). */
const PAUSE_MS = { min: 1000, max: 10_000 };

export const waitForRecordingOption: INodeProperties = {
	displayName: 'Wait for Recording (Seconds)',
	name: 'waitForRecordingSec',
	type: 'number',
	typeOptions: { minValue: WAIT_SEC.min, maxValue: WAIT_SEC.max },
	default: 60,
	description:
		'The recording is written some seconds after the call ends. While the service answers that ' +
		'it does not exist (code 3002), ask again until this many seconds have passed. 0: ask once. ' +
		'Unset: 60 (0 in nodes added before version 1.2).',
};

/** The option in seconds, checked; unset, the default of the node's version. */
export function readRecordingWait(
	checks: InputChecks,
	value: unknown,
	typeVersion: number,
): number {
	if (value === undefined) return typeVersion < 1.2 ? WAIT_SEC.defaultBefore1_2 : WAIT_SEC.default;
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
			if (serviceCodeOf(error) !== NO_RECORDING_CODE)
				throw asNodeError(this.getNode(), error, request.itemIndex);
			const left = waitSec * 1000 - (Date.now() - started);
			if (left <= 0) {
				const endedSecAgo = await secondsSinceEnd.call(this, request);
				if (tries === 1) throw askedOnce(this, request, error, endedSecAgo);
				throw notRecordedWithin(this, request, error as Error, { started, tries, endedSecAgo });
			}
			await sleep(Math.min(PAUSE_MS.min * 2 ** (tries - 1), PAUSE_MS.max, left));
		}
	}
}

/**
 * How long ago the call ended, on the service's own clock (`NOW()` against `end_call`, both its
 * own: no time zone to know); undefined when the call ID cannot go into a statement or the
 * service does not say. Asked only once a download has failed with 3002.
 */
async function secondsSinceEnd(
	this: IExecuteFunctions,
	request: VirtualnumRequest,
): Promise<number | undefined> {
	const callId = String(request.params?.call_uuid ?? '');
	if (!/^\d{1,20}(\.\d{1,20})?$/.test(callId)) return undefined;
	try {
		const answer = await virtualnumRequest.call(this as unknown as RequestContext, {
			service: 'cdr_query',
			params: {
				sql:
					'SELECT TIMESTAMPDIFF(SECOND, end_call, NOW()) AS ended_sec_ago FROM webserviceview ' +
					`WHERE cdr_uniqueid = '${callId}' LIMIT 1`,
			},
			itemIndex: request.itemIndex,
			timeoutMs: request.timeoutMs,
			noResultsAsEmpty: true,
		});
		const seconds = Number(resultRows(answer.result)[0]?.ended_sec_ago);
		return Number.isFinite(seconds) ? seconds : undefined;
	} catch {
		return undefined;
	}
}

interface Tries {
	started: number;
	tries: number;
	endedSecAgo?: number;
}

function recent(endedSecAgo: number | undefined): endedSecAgo is number {
	return endedSecAgo !== undefined && endedSecAgo <= RECENT_SEC;
}

function notWrittenYet(endedSecAgo: number, verb: 'Set' | 'Raise'): string {
	return (
		`The call ended ${Math.max(0, endedSecAgo)} s ago: its recording may not be written yet (the ` +
		`service writes it some seconds after the call ends). ${verb} Wait for Recording (Seconds) ` +
		'in Options (e.g. 60) to ask again until it exists.'
	);
}

/** 3002 asked once: the service's error, with the advice that fits how long ago the call ended. */
function askedOnce(
	context: IExecuteFunctions,
	request: VirtualnumRequest,
	error: unknown,
	endedSecAgo: number | undefined,
): Error {
	const failure = asNodeError(context.getNode(), error, request.itemIndex);
	if (!recent(endedSecAgo)) return failure;
	const said = (failure.context.data as { description?: string } | undefined)?.description;
	failure.description = `${said ? `The service said: "${said}". ` : ''}${notWrittenYet(endedSecAgo, 'Set')}`;
	return failure;
}

/** 3002 after the wait: for a call that ended recently, the recording may simply not be written yet. */
function notRecordedWithin(
	context: IExecuteFunctions,
	request: VirtualnumRequest,
	error: Error,
	{ started, tries, endedSecAgo }: Tries,
): NodeOperationError {
	const seconds = Math.round((Date.now() - started) / 1000);
	const advice = recent(endedSecAgo)
		? notWrittenYet(endedSecAgo, 'Raise')
		: 'Only recorded calls have a file (see the record percentage of the number). If this call ' +
			'was recorded, raise Wait for Recording (Seconds).';
	return new NodeOperationError(
		context.getNode(),
		`No recording of call ${String(request.params?.call_uuid)} after waiting ${seconds} s ` +
			`(${tries} tries): the service still says it does not exist (code ${NO_RECORDING_CODE})`,
		{ itemIndex: request.itemIndex, description: `${advice} The service said: ${error.message}` },
	);
}
