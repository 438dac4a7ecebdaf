/**
 * What the bad-input table (badInputRows.mts) is written with: the shape of a row, the limits it
 * reads (the spec's, from LIMITS and VN_LIMITS, and the package's own rules), and values of an exact
 * length or size.
 */
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { SMS_LIMITS } from '../../nodes/shared/limits.ts';
import { LIMITS } from '../../nodes/shared/checks.ts';
import { PHONE_LIMITS } from '../../nodes/shared/phones.ts';
import { GET_MANY_LIMIT as LIMIT_FIELD } from '../../nodes/VirtualNumber/helpers/utils.ts';
import { VN_LIMITS } from '../../nodes/shared/limits.ts';
import { expr, type NodeType } from './support.mts';

export type Target = NodeType | 'trigger';

export interface Row {
	/** The LIMITS entry (or TRIGGER_LIMITS as trigger.<key>, SMS_LIMITS as sms.<key>) the row exercises. */
	limit: string;
	/** The field the error names. */
	field: string;
	target: Target;
	/** The request that shows the check passed. */
	service: string;
	inside: unknown[];
	outside: unknown[];
	parameters(value: unknown): IDataObject;
	/** Input items carrying the value (binary files). */
	input?(value: unknown): INodeExecutionData[];
	/** A limit the service applies itself: over it is sent, and the node says what the service keeps. */
	overIsNotice?: (output: IDataObject) => void;
	/** Shown in the test name instead of the values (long ones). */
	show?(value: unknown): string;
}

export const A_NUMBER = '0722000100';
/** The spec's limits, and the rules of the Virtual Number node's own operations the rows exercise. */
export const L = {
	...LIMITS,
	...VN_LIMITS,
	virtualnumForUpdate: { minLength: PHONE_LIMITS.virtualnumMinDigits },
	// The package's own rules (not the spec's), as the nodes' fields and docs state them.
	/** Virtual Number → Get Many's Limit. */
	getManyLimit: { min: 1, max: 10000 },
	cdrQueryLimit: LIMIT_FIELD,
	/** The Timeout option of the call-record operations: up to an hour. */
	longTimeoutSec: { min: 1, max: 3600 },
	/** Two-Leg Call's custom parameter names: plain names that cannot shadow the operation's own. */
	customParameterName: {
		pattern: /^[A-Za-z][A-Za-z0-9_]{0,63}$/,
		reserved: [
			'service',
			'format',
			'virtualnum',
			'virtualnum1',
			'virtualnum2',
			'destination1',
			'destination2',
		],
	},
};
export const S = SMS_LIMITS;

/** Comma-separated 10-digit numbers and a last one of 3-13 digits (the service takes 3-15), exactly `length` characters. */
export function phoneList(length: number): string {
	const full = Math.floor((length - 3) / 11);
	return `${'0501234567,'.repeat(full)}${'7'.repeat(length - 11 * full)}`;
}
export const url = (length: number) => {
	const head = 'https://crm.example.com/calls?x=';
	return head + 'a'.repeat(length - head.length);
};
export const email = (length: number) =>
	`${'u'.repeat(length - '@example.com'.length)}@example.com`;
export const password = (length: number) => `Ab1${'x'.repeat(length - 3)}`;
/** A SELECT of exactly `bytes` bytes; with `multibyte`, padded with 2-byte characters (fewer characters than bytes). */
export function sqlOf(bytes: number, multibyte = false): string {
	const head = "SELECT cdr_uniqueid FROM webserviceview WHERE user_name = '";
	const room = bytes - Buffer.byteLength(head) - 1;
	const pad = multibyte
		? 'é'.repeat(Math.floor(room / 2)) + 'e'.repeat(room % 2)
		: 'e'.repeat(room);
	return `${head}${pad}'`;
}
/** Longest name the custom-parameter pattern allows ({0,N} after the first letter). */
export const CUSTOM_NAME_MAX =
	1 + Number(/\{0,(\d+)\}/.exec(L.customParameterName.pattern.source)![1]);

export function wav(bytes: number): Buffer {
	const data = Buffer.alloc(bytes);
	data.write('RIFF', 0, 'latin1');
	data.writeUInt32LE(bytes - 8, 4);
	data.write('WAVEfmt ', 8, 'latin1');
	return data;
}
export const fileInput = (fileName: string, data: Buffer): INodeExecutionData[] => [
	{
		json: {},
		binary: {
			data: {
				data: data.toString('base64'),
				mimeType: 'application/octet-stream',
				fileName,
				bytes: data.length,
			} as IBinaryData,
		},
	},
];

export const range = (min: number, max: number) => ({
	inside: [min, max],
	outside: [min - 1, max + 1],
});

export const create = (extra: IDataObject) => ({
	resource: 'virtualnum',
	operation: 'create',
	description: 'Robust',
	callDestinationPhone: '0501234567',
	...extra,
});
export const setting = (name: string) => (value: unknown) =>
	create({ additionalFields: { [name]: expr(value) } });
