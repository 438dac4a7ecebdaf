// The records of the emulated account as the sandbox keeps them (numbers, users, tags, the blacklist,
// prompts, senders, messages, tokens, what the sandbox observed) and what a seed holds: the shapes
// state.mts fills and the services read.
import type { AudioType } from './audio.mts';

export interface SeedOptions {
	numbers?: number;
	poolNumbers?: number;
	cdrs?: number;
	recordingBytes?: number;
	users?: number;
	credit?: number;
}

export const DEFAULT_SEED: Required<SeedOptions> = {
	numbers: 5,
	poolNumbers: 50,
	cdrs: 20,
	recordingBytes: 64 * 1024,
	users: 2,
	credit: 10000,
};

export const DEFAULT_TOKENS = {
	vn: 'vn-sandbox-token',
	sms: 'sms-sandbox-token',
	expired: 'expired-sandbox-token',
	suspended: 'suspended-sandbox-token',
	smsAccount: 'sms-account-token',
};

export const PRIVATE_FIELDS = Array.from(
	{ length: 10 },
	(_, i) => `private_field${i + 1}` as const,
);
export type PrivateField = (typeof PRIVATE_FIELDS)[number];

export interface VnRecord extends Record<PrivateField, string> {
	description: string;
	virtualnum: string;
	active_status: number;
	create_time: string;
	email: string;
	sms_destination_phone: string;
	working_hours: string;
	out_of_time_destination_phone: string;
	callback_url: string;
	callback_url_option: number;
	greeting_in: string;
	ringback_tone: string;
	greeting_out: string;
	call_destination_phone: string;
	dial_option: number;
	dial_timeout_in_sec: number;
	record_percentage: number;
	record_option: number;
	extenstion: string;
	expose: number;
	disallow_callback: number;
	default_dest: string;
}

/** Field order of the spec's virtual number record. */
export const VN_FIELDS: Array<keyof VnRecord> = [
	'description',
	'virtualnum',
	'active_status',
	'create_time',
	'email',
	...PRIVATE_FIELDS,
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

export const ALWAYS_OPEN = '1'.repeat(168);

export interface ReleasedNumber {
	record: VnRecord;
	releasedAt: string;
	/** Taken by another account since: restore answers 4044. */
	reallocated: boolean;
}

export interface TokenInfo {
	service: 'vn' | 'sms' | 'any';
	status: 'valid' | 'expired' | 'suspended';
	userId?: number;
}

export interface User {
	user_id: number;
	email: string;
	user_login: string;
	user_phone: string;
	user_phone_sms: string;
	user_status: number;
	passwordHash: string;
	create_time: string;
	timezone: string;
	language: string;
	date_format: string;
	permissions: Record<string, string>;
	/** Assigned numbers, in assignment order. */
	virtualnums: string[];
}

export interface AccessLogEntry {
	access_log_user_id: number;
	access_log_name: string;
	access_log_time: string;
	access_log_status: string;
	access_log_ip: string;
}

export interface Tag {
	tag_id: number;
	tag_name: string;
	create_time: string;
	members: Set<string>;
}

export interface BlacklistEntry {
	caller_number: string;
	virtualnum: string; // '' = global
	note: string;
	create_time: string;
}

export interface Prompt {
	name: string;
	create_date: string;
	size: number;
	length: number;
	type: AudioType;
	data: Buffer;
}

export interface Sender {
	sender: string;
	type: 'phone' | 'text';
	description: string;
	verified: boolean;
}

export interface SentMessage {
	message_id: number;
	dest: string;
	sender: string;
	message: string;
	sendtime: string;
	total_charge: number;
	callback_url: string;
	status: 'QUEUED' | 'DELIVERED' | 'FAILED';
	status_time: string;
}

export interface RecordedFile {
	field: string;
	filename: string;
	contentType: string;
	size: number;
	sha256: string;
}

export interface RecordedRequest {
	server: 'vn' | 'sms';
	method: string;
	path: string;
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
	operation: string;
	files?: RecordedFile[];
	rawBodySize: number;
	receivedAt: string;
}

export interface CallbackRecord {
	kind: 'call.start' | 'call.end' | 'sms.delivery' | 'sms.inbound';
	url: string;
	method: string;
	headers: Record<string, string>;
	query: Record<string, string>;
	body: unknown;
	sentAt: string;
	responseStatus: number | null;
	responseBody: string;
	/** The answer's Content-Encoding, when it had one (the body is recorded decoded). */
	responseEncoding?: string;
	error?: string;
}

export interface CallRoute {
	call_uuid: string;
	virtualnum: string;
	/** The answer to the start callback, trimmed (at most 200 characters kept). */
	answer: string;
	/** The phone number the answer named, or '' (the number's own routing). */
	destination: string;
	/** Who took the call in the end (user_phone of the call record). */
	routedTo: string;
}

export interface AccountSettings {
	/** Calls may be placed (3012 when false). */
	callsAllowed: boolean;
	/** get_cdr_metadata_by_call_uuid adds speech_recognition for recorded calls. */
	speechRecognition: boolean;
	ipAllowed: boolean;
	/** An API access token is configured for the VN account (spec: the bearer header is required only then). */
	apiToken: boolean;
	timezone: string;
	language: string;
	date_format: string;
	defaultDialTimeout: number;
}
