/**
 * Wait for Call Record, shared by Click to Call and Two-Leg Call: after placing a call, find its
 * call record with cdr_query and output it in the call vocabulary, as integrators do by hand.
 * The service may answer a placement without a call id (observed in the field), so the record is
 * found by its id when there is one, else by the numbers and a time window from the placement.
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { simplifyCallRow } from '../../../shared/callFields';
import { NodeOperationError, sleep } from 'n8n-workflow';
import { DateTime } from 'luxon';

import type { InputChecks } from '../../../shared/checks';
import { DATE_FORMATS } from '../../../shared/dates';
import { phoneDigits } from '../../../shared/phones';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows } from '../../../shared/virtualnums';

/** Bounds of the wait: a record normally appears when the call ends, within minutes. */
const WAIT_LIMITS = {
	// The fields' defaults (literal there, as the lint wants): 120 and 10.
	maxWaitSec: { default: 120, min: 1, max: 900 },
	intervalSec: { default: 10, min: 1, max: 300 },
	/** The window opens this long before the placement: the two clocks may differ a little. */
	clockSlackSec: 120,
};

const COLUMNS =
	'id, start_call, end_call, call_duration, cdr_ani, cdr_ddi, user_phone, user_name, ' +
	'call_status, onetouch, cdr_uniqueid, cdr_meta_data, gclid';

/** The fields of the option, for an operation's Options (or its own fields). */
export const waitForRecordFields: INodeProperties[] = [
	{
		displayName: 'Wait for Call Record',
		name: 'waitForCallRecord',
		type: 'boolean',
		default: false,
		description:
			"Whether to wait until the call's record exists (normally when the call ends) and output " +
			'it (Call ID, status, duration, who answered) instead of only the placement',
	},
	{
		displayName: 'Max Wait (Seconds)',
		name: 'maxWaitSec',
		type: 'number',
		typeOptions: {
			minValue: WAIT_LIMITS.maxWaitSec.min,
			maxValue: WAIT_LIMITS.maxWaitSec.max,
		},
		default: 120,
		description: 'How long to look for the record before failing',
		displayOptions: { show: { waitForCallRecord: [true] } },
	},
	{
		displayName: 'Check Every (Seconds)',
		name: 'checkEverySec',
		type: 'number',
		typeOptions: {
			minValue: WAIT_LIMITS.intervalSec.min,
			maxValue: WAIT_LIMITS.intervalSec.max,
		},
		default: 10,
		description: 'The pause between two look-ups (each is one cdr_query request)',
		displayOptions: { show: { waitForCallRecord: [true] } },
	},
];

interface PlacedCall {
	callId?: string;
	virtualnum: string;
	/** The number the service called (the record's caller number). */
	callerNumber: string;
	/** When the placement was sent. */
	placedAt: DateTime;
}

interface WaitSettings {
	maxWaitSec: number;
	checkEverySec: number;
}

/** The settings when Wait for Call Record is on; undefined when off (the default). */
export function readWaitSettings(
	this: IExecuteFunctions,
	checks: InputChecks,
): WaitSettings | undefined {
	if (this.getNodeParameter('waitForCallRecord', checks.itemIndex, false) !== true)
		return undefined;
	const { maxWaitSec, intervalSec } = WAIT_LIMITS;
	return {
		maxWaitSec: checks.integerInRange(
			'Max Wait (Seconds)',
			this.getNodeParameter('maxWaitSec', checks.itemIndex, maxWaitSec.default),
			maxWaitSec.min,
			maxWaitSec.max,
		),
		checkEverySec: checks.integerInRange(
			'Check Every (Seconds)',
			this.getNodeParameter('checkEverySec', checks.itemIndex, intervalSec.default),
			intervalSec.min,
			intervalSec.max,
		),
	};
}

/** A value for a LIKE on the last digits: local (0…) and international (972…) forms both match. */
function lastDigits(phone: string): string {
	return (phoneDigits(phone) ?? '').slice(-9);
}

/** The statement finding the call's record: by id, else by the numbers after the window's start. */
function recordStatement(call: PlacedCall, zone: string): string {
	const where: string[] = [];
	if (call.callId !== undefined && /^[\w.-]+$/.test(call.callId)) {
		where.push(`cdr_uniqueid = '${call.callId}'`);
	} else {
		const from = call.placedAt.minus({ seconds: WAIT_LIMITS.clockSlackSec }).setZone(zone);
		where.push(`cdr_ddi LIKE '%${lastDigits(call.virtualnum)}'`);
		where.push(`cdr_ani LIKE '%${lastDigits(call.callerNumber)}'`);
		where.push(`start_call >= '${from.toFormat(DATE_FORMATS.virtualnum)}'`);
	}
	return (
		`SELECT ${COLUMNS}, 1 AS record_file_exists FROM webserviceview ` +
		`WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT 1`
	);
}

/** One look-up; undefined while the record is not there. */
async function findRecord(
	this: IExecuteFunctions,
	sql: string,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	const answer = await virtualnumRequest.call(this, {
		service: 'cdr_query',
		method: 'POST',
		params: { sql },
		itemIndex,
		// The statement is built here and valid: 1013 can only mean "not there yet".
		noResultsAsEmpty: true,
	});
	return resultRows(answer.result)[0];
}

/**
 * Looks for the call's record until it is there or Max Wait has passed (one look-up at once, then
 * one every Check Every seconds); fails saying how long it looked and what it looked for.
 */
export async function waitForCallRecord(
	this: IExecuteFunctions,
	call: PlacedCall,
	settings: WaitSettings,
	itemIndex: number,
): Promise<IDataObject> {
	const sql = recordStatement(call, this.getTimezone());
	const started = Date.now();
	let tries = 0;
	for (;;) {
		tries++;
		const row = await findRecord.call(this, sql, itemIndex);
		if (row) return simplifyCallRow(row);
		const waited = Date.now() - started;
		const left = settings.maxWaitSec * 1000 - waited;
		if (left <= 0) break;
		await sleep(Math.min(settings.checkEverySec * 1000, left));
	}
	const seconds = Math.round((Date.now() - started) / 1000);
	throw new NodeOperationError(
		this.getNode(),
		`The call was placed, but its call record did not appear within ${seconds} s (${tries} look-ups)`,
		{
			itemIndex,
			description:
				(call.callId ? `Looked for call ID ${call.callId}. ` : '') +
				'The record is written when the call ends: raise Max Wait (Seconds) for longer calls, ' +
				'or find it later with Call Record → Query. The call is not placed again.',
		},
	);
}
