/**
 * The callbacks a call centre sends the trigger, in the mix the trigger rows use: call start (JSON),
 * call end (form), call end as a GET with a query string, and an SMS delivery report (JSON).
 */
import type { IDataObject } from 'n8n-workflow';

export const TRIGGER_SECRET = 'bench-secret';

export interface Callback {
	method: 'GET' | 'POST';
	query: IDataObject;
	body: unknown;
	/** The body as sent on the wire (absent for a GET). */
	rawBody?: string;
	headers: Record<string, string>;
}

export function callbackRequest(i: number): Callback {
	const call = {
		call_uuid: `${1_730_603_890 + i}.${i}`,
		cdr_ddi: '0722000100',
		cdr_ani: `05${String(20_000_000 + i)}`,
		user_phone: '0501234567',
		user_name: 'Sales line',
		start_call: '2024-11-03 10:18:10',
	};
	switch (i % 4) {
		case 0:
			return jsonPost({ event: 'call.start', ...call });
		case 1:
			return formPost({
				event: 'call.end',
				...call,
				end_call: '2024-11-03 10:21:40',
				call_duration: '210',
				call_status: 'ANSWER',
				record_file_exists: '1',
			});
		case 2:
			return {
				method: 'GET',
				query: { ...call, event: 'call.end', call_duration: '35', call_status: 'NOANSWER' },
				body: {},
				headers: {},
			};
		default:
			return jsonPost({
				message_id: 100_000_001 + i,
				dest: `97250${String(1_000_000 + i)}`,
				sender: 'VirtualNum',
				status: 'DELIVERED',
				status_time: '2024-11-03 10:18:15',
				sendtime: '2024-11-03 10:18:10',
			});
	}
}

function jsonPost(body: IDataObject): Callback {
	return {
		method: 'POST',
		query: {},
		body,
		rawBody: JSON.stringify(body),
		headers: { 'content-type': 'application/json' },
	};
}

function formPost(body: Record<string, string>): Callback {
	return {
		method: 'POST',
		query: {},
		body,
		rawBody: new URLSearchParams(body).toString(),
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
	};
}
