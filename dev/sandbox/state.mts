// The whole emulated world of one sandbox run: account numbers, the pool, call records, users,
// tags, blacklist, prompts, SMS senders and messages, plus what the sandbox observed (requests,
// callbacks). reset() builds a new State; seeding is deterministic (fixed PRNG seeds, fixed dates).
import type { SqlJsStatic } from 'sql.js';
import { makeWav } from './audio.mts';
import type { AudioType } from './audio.mts';
import { CdrStore } from './vn/cdrstore.mts';
import { Rng, formatDateTime, formatLocalMs, internationalPhone, sha256 } from './util.mts';

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

/** Seeded history lies in Q4 2024 (local time), so tests can query fixed ranges. */
export const HISTORY_START = new Date(2024, 9, 1, 0, 0, 0);
export const HISTORY_END = new Date(2025, 0, 1, 0, 0, 0);

const DESCRIPTIONS = [
	'Google Ads',
	'Facebook leads',
	'Website header',
	'Billboard Tel Aviv',
	'Radio spot',
	'Support line',
	'Newsletter',
	'Landing page B',
];
const CAMPAIGNS = ['spring-sale', 'brand', 'retargeting', 'search-generic', 'display'];
const SOURCES = ['google', 'facebook', 'newsletter', 'direct', 'bing'];

export class State {
	readonly cdr: CdrStore;
	readonly account: AccountSettings = {
		callsAllowed: true,
		speechRecognition: true,
		ipAllowed: true,
		apiToken: true,
		timezone: 'Asia/Jerusalem',
		language: 'he',
		date_format: 'd/m/Y',
		defaultDialTimeout: 60,
	};
	readonly tokens = new Map<string, TokenInfo>();
	readonly numbers = new Map<string, VnRecord>();
	readonly pool = new Set<string>();
	readonly released = new Map<string, ReleasedNumber>();
	/** Numbers that exist at the provider but belong to other accounts. */
	readonly foreign = new Set<string>();
	readonly users = new Map<number, User>();
	readonly accessLog: AccessLogEntry[] = [];
	readonly tags = new Map<number, Tag>();
	readonly blacklist: BlacklistEntry[] = [];
	readonly prompts = new Map<string, Prompt>();
	readonly senders = new Map<string, Sender>();
	readonly otps = new Map<string, string>();
	readonly messages: SentMessage[] = [];
	readonly requests: RecordedRequest[] = [];
	readonly callbacks: CallbackRecord[] = [];
	/** When each call placed in this run ended (epoch ms), by row id: recordings appear after it. */
	readonly callEndedAt = new Map<number, number>();
	/** What the answers to call-start callbacks named as the call's destination. */
	readonly routes: CallRoute[] = [];
	credit: number;
	recordingBytes: number;
	nextUserId = 1;
	nextTagId = 1;
	nextMessageId = 100000001;
	private numberSeq = 0;
	private poolSeq = 0;
	private cdrBatches = 0;
	/** Separate streams so that seeding more of one kind never changes the data of another. */
	readonly rng = {
		numbers: new Rng(1),
		cdrs: new Rng(2),
		users: new Rng(3),
		calls: new Rng(4),
		otp: new Rng(5),
		misc: new Rng(6),
	};

	constructor(SQL: SqlJsStatic, seed: SeedOptions = {}) {
		const options = { ...DEFAULT_SEED, ...seed };
		this.cdr = new CdrStore(SQL);
		this.credit = options.credit;
		this.recordingBytes = options.recordingBytes;
		this.tokens.set(DEFAULT_TOKENS.vn, { service: 'vn', status: 'valid', userId: 1 });
		this.tokens.set(DEFAULT_TOKENS.sms, { service: 'sms', status: 'valid' });
		this.tokens.set(DEFAULT_TOKENS.expired, { service: 'any', status: 'expired' });
		this.tokens.set(DEFAULT_TOKENS.suspended, { service: 'any', status: 'suspended' });

		this.addNumbers(options.numbers, 1);
		this.addNumbers(1, 0); // the suspended one
		this.addPool(options.poolNumbers);
		this.seedNumberHistory();
		this.seedUsers(options.users);
		this.seedTags();
		this.seedBlacklist();
		this.seedPrompts();
		this.seedSenders();
		this.addCdrs(options.cdrs);
	}

	// ---- numbers -------------------------------------------------------------------------------

	private recordDefaults?: Record<string, unknown>;

	newRecord(virtualnum: string, fields: Partial<VnRecord> = {}): VnRecord {
		if (!this.recordDefaults) {
			const defaults: Record<string, unknown> = {
				description: '',
				active_status: 1,
				email: '',
				sms_destination_phone: '',
				working_hours: ALWAYS_OPEN,
				out_of_time_destination_phone: '',
				callback_url: '',
				callback_url_option: 2,
				greeting_in: '',
				ringback_tone: '',
				greeting_out: '',
				call_destination_phone: '',
				dial_option: 1,
				dial_timeout_in_sec: this.account.defaultDialTimeout,
				record_percentage: 100,
				record_option: 1,
				extenstion: '',
				expose: 1,
				disallow_callback: 0,
				default_dest: '',
			};
			for (const field of PRIVATE_FIELDS) defaults[field] = '';
			this.recordDefaults = defaults;
		}
		const values = fields as Record<string, unknown>;
		const record: Record<string, unknown> = {};
		for (const key of VN_FIELDS)
			record[key] = values[key] !== undefined ? values[key] : this.recordDefaults[key];
		record.virtualnum = virtualnum;
		if (record.create_time === undefined) record.create_time = formatDateTime(new Date());
		return record as unknown as VnRecord;
	}

	/** Adds account numbers 0722000100, 0722000101, ... with varied deterministic settings. */
	addNumbers(count: number, activeStatus = 1): VnRecord[] {
		const rng = this.rng.numbers;
		const created: VnRecord[] = [];
		for (let i = 0; i < count; i++) {
			const seq = this.numberSeq++;
			const virtualnum = `0722${String(100 + seq).padStart(6, '0')}`;
			const destination = `05${rng.int(0, 8)}${rng.digits(7)}`;
			const created_at = new Date(
				HISTORY_START.getTime() - rng.int(1, 365) * 86400000 + rng.int(0, 86399) * 1000,
			);
			const record = this.newRecord(virtualnum, {
				description: `${rng.pick(DESCRIPTIONS)} ${seq + 1}`,
				active_status: activeStatus,
				create_time: formatDateTime(created_at),
				email: seq % 3 === 0 ? `alerts${seq + 1}@example.com` : '',
				private_field1: rng.pick(CAMPAIGNS),
				private_field2: `branch-${rng.int(1, 9)}`,
				call_destination_phone: destination,
				default_dest: destination,
				extenstion: String(100 + seq),
				greeting_in: seq % 2 === 0 ? 'welcome' : '',
				record_percentage: 100,
			});
			this.numbers.set(virtualnum, record);
			created.push(record);
		}
		return created;
	}

	/** Free numbers with prefixes 072, 073 and 077 so that prefix allocation can be exercised. */
	addPool(count: number): string[] {
		const created: string[] = [];
		for (let i = 0; i < count; i++) {
			const seq = this.poolSeq++;
			const number = `${['072', '073', '077'][seq % 3]}3${String(seq).padStart(6, '0')}`;
			this.pool.add(number);
			created.push(number);
		}
		return created;
	}

	sortedPool(): string[] {
		return [...this.pool].sort();
	}

	/** One number released by this account and still free, one released and then taken elsewhere. */
	private seedNumberHistory(): void {
		const restorable = this.newRecord('0779999001', {
			description: 'Old campaign (released)',
			call_destination_phone: '0501112233',
			default_dest: '0501112233',
			create_time: formatDateTime(new Date(2024, 0, 15, 10, 0, 0)),
		});
		this.released.set('0779999001', {
			record: restorable,
			releasedAt: formatDateTime(new Date(2024, 5, 1, 9, 0, 0)),
			reallocated: false,
		});
		this.pool.add('0779999001');
		const taken = this.newRecord('0779999002', {
			description: 'Expired promo (released)',
			call_destination_phone: '0501112244',
			default_dest: '0501112244',
			create_time: formatDateTime(new Date(2024, 0, 20, 10, 0, 0)),
		});
		this.released.set('0779999002', {
			record: taken,
			releasedAt: formatDateTime(new Date(2024, 5, 2, 9, 0, 0)),
			reallocated: true,
		});
		this.foreign.add('0779999002');
		this.foreign.add('0779999003');
	}

	// ---- users ---------------------------------------------------------------------------------

	hashPassword(password: string): string {
		return sha256(`sandbox:${password}`);
	}

	createUser(fields: {
		email: string;
		password: string;
		user_login?: string;
		user_phone?: string;
		user_phone_sms?: string;
	}): User {
		const user: User = {
			user_id: this.nextUserId++,
			email: fields.email,
			user_login: fields.user_login || fields.email.split('@')[0],
			user_phone: internationalPhone(fields.user_phone ?? ''),
			user_phone_sms: internationalPhone(fields.user_phone_sms ?? ''),
			user_status: 1,
			passwordHash: this.hashPassword(fields.password),
			create_time: formatDateTime(new Date()),
			// copied from the main administrator (the account settings hold its values)
			timezone: this.account.timezone,
			language: this.account.language,
			date_format: this.account.date_format,
			permissions: {
				reports: 'view',
				recordings: 'listen',
				virtualnums: 'assigned',
				users: 'none',
			},
			virtualnums: [],
		};
		this.users.set(user.user_id, user);
		const personal = `#${user.email}`;
		if (![...this.tags.values()].some((t) => t.tag_name === personal)) this.createTag(personal);
		return user;
	}

	private seedUsers(count: number): void {
		const rng = this.rng.users;
		const numbers = [...this.numbers.keys()];
		for (let i = 0; i < count; i++) {
			const admin = i === 0;
			const user = this.createUser({
				email: admin ? 'admin@example.com' : `agent${i}@example.com`,
				password: `Sandbox-${i + 1}-pass`,
				user_login: admin ? 'admin' : `agent${i}`,
				user_phone: `05${rng.int(0, 8)}${rng.digits(7)}`,
				user_phone_sms: admin ? '' : `05${rng.int(0, 8)}${rng.digits(7)}`,
			});
			user.create_time = formatDateTime(new Date(2024, 0, 1 + i, 9, 0, 0));
			if (admin)
				user.permissions = {
					reports: 'manage',
					recordings: 'download',
					virtualnums: 'all',
					users: 'manage',
				};
			else user.virtualnums.push(...numbers.slice(0, 2));
		}
		// Access history over the seeded quarter, oldest first (the operation answers newest first).
		const span = HISTORY_END.getTime() - HISTORY_START.getTime();
		const users = [...this.users.values()];
		if (users.length === 0) return;
		for (let i = 0; i < 40; i++) {
			const user = users[i % users.length];
			this.accessLog.push({
				access_log_user_id: user.user_id,
				access_log_name: user.user_login,
				access_log_time: formatDateTime(
					new Date(HISTORY_START.getTime() + Math.floor(((i + rng.next()) * span) / 40)),
				),
				access_log_status: rng.chance(0.1) ? 'failed' : 'success',
				access_log_ip: `203.0.113.${rng.int(1, 254)}`,
			});
		}
	}

	// ---- tags ----------------------------------------------------------------------------------

	createTag(name: string, members: string[] = []): Tag {
		const tag: Tag = {
			tag_id: this.nextTagId++,
			tag_name: name,
			create_time: formatDateTime(new Date()),
			members: new Set(members),
		};
		this.tags.set(tag.tag_id, tag);
		return tag;
	}

	private seedTags(): void {
		const numbers = [...this.numbers.keys()];
		const fixed = formatDateTime(new Date(2024, 8, 1, 12, 0, 0));
		for (const tag of this.tags.values()) tag.create_time = fixed;
		this.createTag('Google', numbers.slice(0, 2)).create_time = fixed;
		this.createTag('Facebook', numbers.slice(2, 4)).create_time = fixed;
		this.createTag('VIP', numbers.slice(0, 1)).create_time = fixed;
		this.createTag('Unused').create_time = fixed;
	}

	tagView(tag: Tag): {
		tag_id: number;
		tag_name: string;
		create_time: string;
		members_count: number;
	} {
		return {
			tag_id: tag.tag_id,
			tag_name: tag.tag_name,
			create_time: tag.create_time,
			members_count: tag.members.size,
		};
	}

	// ---- blacklist, prompts, senders -----------------------------------------------------------

	private seedBlacklist(): void {
		const first = [...this.numbers.keys()][0] ?? '';
		const time = formatDateTime(new Date(2024, 9, 5, 11, 30, 0));
		this.blacklist.push({
			caller_number: '0501111111',
			virtualnum: '',
			note: 'Spam caller',
			create_time: time,
		});
		this.blacklist.push({
			caller_number: '0777777777',
			virtualnum: '',
			note: 'Robocall',
			create_time: time,
		});
		if (first)
			this.blacklist.push({
				caller_number: '0502222222',
				virtualnum: first,
				note: 'Harassment on this line',
				create_time: time,
			});
	}

	private seedPrompts(): void {
		const seeds: Array<[string, number, number]> = [
			['welcome', 48044, 440],
			['after_hours', 32044, 330],
			['hold_music', 96044, 262],
		];
		for (const [index, [name, bytes, frequency]] of seeds.entries()) {
			const data = makeWav(bytes, frequency);
			this.prompts.set(name, {
				name,
				create_date: formatDateTime(new Date(2024, 6, 1 + index, 12, 0, 0)),
				size: data.length,
				length: Math.round(((data.length - 44) / 16000) * 100) / 100,
				type: 'wav',
				data,
			});
		}
	}

	private seedSenders(): void {
		const senders: Sender[] = [
			{ sender: 'VirtualNum', type: 'text', description: 'Brand name', verified: true },
			{ sender: 'Shop24', type: 'text', description: 'Online shop', verified: true },
			{ sender: '0501234567', type: 'phone', description: 'Office mobile', verified: true },
			{
				sender: '0527654321',
				type: 'phone',
				description: 'Awaiting verification',
				verified: false,
			},
		];
		for (const sender of senders) this.senders.set(sender.sender.toLowerCase(), sender);
	}

	// ---- call records --------------------------------------------------------------------------

	/** Adds `count` call records spread over the seeded quarter; callers repeat so reports group them. */
	addCdrs(count: number): { count: number; first_id: number; last_id: number } {
		const numbers = [...this.numbers.values()];
		if (count <= 0 || numbers.length === 0) return { count: 0, first_id: 0, last_id: 0 };
		const rng = this.rng.cdrs;
		const span = HISTORY_END.getTime() - HISTORY_START.getTime() - 3600_000;
		const callers = Math.max(10, Math.floor(count / 5));
		const batch = this.cdrBatches++;
		let i = 0;
		const ids = this.cdr.insertMany(count, (id) => {
			const number = numbers[rng.int(0, numbers.length - 1)];
			const startMs = HISTORY_START.getTime() + Math.floor(((i++ + rng.next()) * span) / count);
			return this.randomCall(rng, number, startMs, { callers, batch, id });
		});
		return { count, ...ids };
	}

	/** One generated call row; the draws stay in this order so a seed gives the same rows. */
	private randomCall(
		rng: Rng,
		number: VnRecord,
		startMs: number,
		{ callers, batch, id }: { callers: number; batch: number; id: number },
	) {
		const status = randomStatus(rng.next());
		const answered = status === 'ANSWER';
		const duration = answered ? rng.int(10, 600) : 0;
		const callerIndex = (rng.int(0, callers - 1) * 7919 + batch * 104729) % 100000000;
		const withPixel = rng.chance(0.3);
		const withGclid = rng.chance(0.25);
		const recording = answered && rng.chance(0.9);
		const gclid = withGclid
			? `Cj0KCQ${rng.digits(6)}x${rng.int(100000, 999999).toString(36)}AbC`
			: '';
		if (gclid && id % 7 === 0) {
			this.cdr.conversions.set(id, {
				conversion_value: (id % 50) * 10,
				update_time: formatLocalMs(startMs + duration * 1000),
			});
		}
		return {
			startSeconds: Math.floor(startMs / 1000),
			recording,
			row: {
				start_call: formatLocalMs(startMs),
				end_call: formatLocalMs(startMs + duration * 1000),
				call_duration: duration,
				cdr_ani: `05${String(callerIndex).padStart(8, '0')}`,
				cdr_ddi: number.virtualnum,
				user_phone:
					answered || status === 'NOANSWER' || status === 'BUSY' ? number.default_dest : '',
				user_name: number.description,
				call_status: status,
				onetouch: answered && rng.chance(0.4) ? String(rng.int(1, 5)) : '',
				cdr_meta_data: withPixel
					? `{"utm_source":"${rng.pick(SOURCES)}","utm_campaign":"${rng.pick(CAMPAIGNS)}","landing_page":"/lp/${rng.int(1, 20)}"}`
					: '',
				gclid,
			},
		};
	}

	close(): void {
		this.cdr.close();
	}
}

/** A generated call's status: mostly answered, then the failures in the shares the reports show. */
function randomStatus(roll: number): string {
	const shares: Array<[number, string]> = [
		[0.7, 'ANSWER'],
		[0.82, 'NOANSWER'],
		[0.9, 'BUSY'],
		[0.95, 'CALLER CANCEL'],
		[0.97, 'NOT ACTIVE'],
		[0.99, 'Black List'],
	];
	return shares.find(([below]) => roll < below)?.[1] ?? 'OUT OF TIME';
}
