// What the suites of vn-operations.test.mts share: the sandbox the file started (a live binding),
// `ok` (a call that must succeed, counted as covered) and the fields of a number's record.
import assert from 'node:assert/strict';

import { vn } from '../helpers.mts';
import type { Sandbox } from '../helpers.mts';

export let sb: Sandbox;
export const covered = new Set<string>();

export function useSandbox(sandbox: Sandbox): Sandbox {
	sb = sandbox;
	return sandbox;
}

export async function ok(
	service: string,
	params: Record<string, string | number> = {},
	via?: 'query' | 'form' | 'json',
) {
	const answer = await vn(sb, service, params, { via });
	assert.equal(answer.status.code, 200, `${service}: ${answer.status.description}`);
	assert.equal(answer.service, service);
	covered.add(service);
	return answer;
}

export const RECORD_FIELDS = [
	'description',
	'virtualnum',
	'active_status',
	'create_time',
	'email',
	...Array.from({ length: 10 }, (_, i) => `private_field${i + 1}`),
	'sms_destination_phone',
	'working_hours',
	'out_of_time_destination_phone',
	'callback_url',
	'callback_url_option',
	'greeting_in',
	'ringback_tone',
	'greeting_out',
	'call_destination_phone',
	'dial_option',
	'dial_timeout_in_sec',
	'record_percentage',
	'record_option',
	'extenstion',
	'expose',
	'disallow_callback',
	'default_dest',
];

export const active = () =>
	sb.control.virtualnums().filter((n) => n.active_status === 1)[0].virtualnum;
