// The cases of vn-codes.test.mts: each a request to the virtual number service that answers one
// code of the spec's service-code table (or one of the sandbox's own tag codes), and why.
import type { Sandbox } from '../helpers.mts';

/** What a case reads of the seeded account, and the sandbox to set it up on. */
export interface Ctx {
	sb: Sandbox;
	active: string;
	second: string;
	suspended: string;
	callUuid: string;
	noRecordingUuid: string;
}

export interface Case {
	service: string;
	code: number;
	why: string;
	params?: (c: Ctx) => Record<string, string | number>;
	setup?: (c: Ctx) => Promise<void> | void;
	internal?: boolean; // produced with the serviceError fault
	upload?: { filename: string; bytes: Buffer } | 'none';
}

export const long = (n: number) => 'x'.repeat(n);
export const UNKNOWN = '0799999999';
export const settings = (c: Ctx) => ({
	virtualnum: c.active,
	description: 'Line',
	call_destination_phone: '0501234567',
});
