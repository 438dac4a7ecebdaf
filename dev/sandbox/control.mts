// The control API: the same functions in-process (Sandbox.control) and over HTTP under /_sandbox/
// on both servers (JSON in and out, no authentication). Getters return copies of the state.
import type { Core, CallbackStyle } from './core.mts';
import type { Fault, PendingFault } from './faults.mts';
import { VN_FIELDS } from './state.mts';
import type {
	BlacklistEntry,
	CallbackRecord,
	RecordedRequest,
	SeedOptions,
	Sender,
	SentMessage,
	VnRecord,
	CallRoute,
} from './state.mts';
import { digitsOnly, formatDateTime, sha256 } from './util.mts';
import type { CdrRow } from './vn/cdrstore.mts';
import { placeInboundCall } from './vn/calls.mts';
import type { PlaceCallInput } from './vn/calls.mts';
import { addCalls, fireInboundSms } from './events.mts';
import type { AddCallsInput, InboundSmsInput } from './events.mts';
import { FIELD_BEHAVIOURS, parseBehaviours, validateWord } from './field.mts';
import type { FieldBehaviour, Profile } from './field.mts';
import { copy } from './vn/common.mts';
import { userView } from './vn/users.mts';

export type { PlaceCallInput, AddCallsInput, InboundSmsInput };

export interface ProfileSettings {
	/** 'field' switches every field behaviour on, 'contract' every one off (then `behaviours` are added). */
	profile?: Profile;
	/** Alone: exactly these behaviours; with `profile`: added to it. Array or comma separated. */
	behaviours?: FieldBehaviour[] | string;
	/** The identifier word in place of `virtualnum` ('virtualnum' restores the contract's names). */
	word?: string;
	/** 'recording-delay': how long a recording does not exist after its call (default 5000 ms). */
	recordingDelayMs?: number;
	/** 'refusal-texts': the HTTP status of the observed refusals (default 200; 401 also seen). */
	refusalStatus?: number;
	/** 'callback-get': the words appended as `?event=` (default ring / hangup). */
	eventWords?: { start?: string; end?: string };
}

export interface ProfileView {
	behaviours: FieldBehaviour[];
	word: string;
	recordingDelayMs: number;
	refusalStatus: number;
	eventWords: { start: string; end: string };
}

export interface SeedRequest extends SeedOptions {
	/** One number with these record fields (number allocated when `virtualnum` is not given). */
	virtualnum?: Partial<VnRecord>;
	/**
	 * One call record; `has_recording` defaults to true for answered calls. `id` (a number, or digits
	 * past 2^53): the row id it gets, later rows counting on from it (ids going back or jumping).
	 */
	cdr?: Partial<Omit<CdrRow, 'id' | 'cdr_uniqueid'>> & {
		has_recording?: boolean;
		id?: number | string;
	};
}

export interface SeedResult {
	numbers?: string[];
	pool?: string[];
	cdrs?: { count: number; first_id: number; last_id: number };
	users?: number[];
	credit?: number;
	virtualnum?: VnRecord;
	cdr?: CdrRow & { has_recording: boolean };
}

export interface SandboxSettings {
	callbackStyle?: CallbackStyle;
	callbackDelayMs?: number;
	/** How many times a call's start callback is sent (1 to 10; integrators report repeats). */
	callStartRepeats?: number;
	/** The Accept-Encoding of callbacks ('' none; e.g. `gzip, br`): core.mts. */
	callbackAcceptEncoding?: string;
	/** false: create_virtualnum_call answers 3012 and create_virtualnum_call_v2 3035. */
	callsAllowed?: boolean;
	/** false: get_cdr_metadata_by_call_uuid has no speech_recognition section. */
	speechRecognition?: boolean;
	recordingBytes?: number;
	/** false: the VN account has no API access token, and requests without a bearer header pass the IP check alone (as user 1). */
	apiToken?: boolean;
}

export type CdrView = CdrRow & { has_recording: boolean };

export interface SandboxControl {
	reset(seed?: SeedOptions): void;
	seed(request: SeedRequest): SeedResult;
	requests(filter?: { service?: 'vn' | 'sms'; operation?: string }): RecordedRequest[];
	clearRequests(): void;
	placeCall(input: PlaceCallInput): Promise<{ call: CdrView; callbacks: CallbackRecord[] }>;
	callbacks(filter?: { kind?: CallbackRecord['kind'] }): CallbackRecord[];
	clearCallbacks(): void;
	injectFaults(fault: Fault): PendingFault;
	faults(): PendingFault[];
	clearFaults(): void;
	otp(sender: string): string | undefined;
	setIpAllowed(allowed: boolean): void;
	setCredit(credit: number): void;
	credit(): number;
	/** Delivers every pending scheduled callback now; resolves with the callbacks it sent. */
	flushScheduled(): Promise<CallbackRecord[]>;
	/** Waits until no callback is in flight (API-placed calls send theirs in the background). */
	settle(): Promise<void>;
	configure(settings: SandboxSettings): Required<SandboxSettings>;
	/** A new VN token bound to a user; delete_user invalidates it. */
	issueToken(userId: number): string;
	virtualnum(number: string): VnRecord | undefined;
	virtualnums(): VnRecord[];
	pool(): string[];
	users(): Array<Record<string, unknown>>;
	tags(): Array<{
		tag_id: number;
		tag_name: string;
		create_time: string;
		members_count: number;
		members: string[];
	}>;
	blacklist(): BlacklistEntry[];
	prompts(): Array<{
		name: string;
		create_date: string;
		size: number;
		length: number;
		type: string;
		sha256: string;
	}>;
	promptData(name: string): Buffer | undefined;
	senders(): Sender[];
	messages(): SentMessage[];
	cdrs(filter?: { hasRecording?: boolean; virtualnum?: string; limit?: number }): CdrView[];
	cdr(callUuid: string): CdrView | undefined;
	/** Switches the field profile or single behaviours, the identifier word and their settings. */
	setProfile(settings: ProfileSettings): ProfileView;
	profile(): ProfileView;
	/** Fires an inbound SMS to the number's URL (GET from, to, msg, time); resolves with the attempt. */
	inboundSms(input: InboundSmsInput): Promise<CallbackRecord>;
	/** What the answers to call-start callbacks named as destinations (call routing by answer). */
	routes(): CallRoute[];
	/** New call rows (rising ids and start times), with no callback sent. */
	addCalls(input?: AddCallsInput): CdrView[];
}

export function createControl(core: Core): SandboxControl {
	const view = (row: CdrRow): CdrView => ({
		...row,
		has_recording: core.state.cdr.recordings.has(row.id),
	});
	return {
		reset: (seedOptions) => core.reset(seedOptions),
		seed: (request) => seed(core, request, view),
		...recordControls(core),
		...settingControls(core),
		...stateViews(core, view),
		inboundSms: (input) => fireInboundSms(core, input),
		addCalls: (input = {}) => addCalls(core, input).map(view),
	};
}

/** What the servers recorded and sent (requests, callbacks, faults), and waiting for it. */
function recordControls(
	core: Core,
): Pick<
	SandboxControl,
	| 'requests'
	| 'clearRequests'
	| 'placeCall'
	| 'callbacks'
	| 'clearCallbacks'
	| 'injectFaults'
	| 'faults'
	| 'clearFaults'
	| 'flushScheduled'
	| 'settle'
	| 'routes'
> {
	return {
		requests: (filter = {}) =>
			copy(
				core.state.requests.filter(
					(r) =>
						(!filter.service || r.server === filter.service) &&
						(filter.operation === undefined || r.operation === filter.operation),
				),
			),
		clearRequests: () => {
			core.state.requests.length = 0;
		},
		placeCall: (input) => placeInboundCall(core, input),
		callbacks: (filter = {}) =>
			copy(core.state.callbacks.filter((c) => !filter.kind || c.kind === filter.kind)),
		clearCallbacks: () => {
			core.state.callbacks.length = 0;
		},
		injectFaults: (fault) => core.faults.add(fault),
		faults: () => core.faults.list(),
		clearFaults: () => core.faults.clear(),
		flushScheduled: async () => {
			const before = core.state.callbacks.length;
			await core.flushScheduled();
			await core.settle();
			return copy(core.state.callbacks.slice(before));
		},
		settle: () => core.settle(),
		routes: () => copy(core.state.routes),
	};
}

/** The account's settings, the field profile, credit and tokens. */
function settingControls(
	core: Core,
): Pick<
	SandboxControl,
	| 'otp'
	| 'setIpAllowed'
	| 'setCredit'
	| 'credit'
	| 'configure'
	| 'issueToken'
	| 'setProfile'
	| 'profile'
> {
	return {
		otp: (sender) => core.state.otps.get(String(sender).trim()),
		setIpAllowed: (allowed) => {
			core.state.account.ipAllowed = allowed;
		},
		setCredit: (credit) => {
			if (!Number.isFinite(credit) || credit < 0) throw new Error('credit must be a number >= 0');
			core.state.credit = Math.floor(credit);
		},
		credit: () => core.state.credit,
		configure: (settings) => configure(core, settings),
		issueToken: (userId) => {
			if (!core.state.users.has(Number(userId))) throw new Error(`no user ${userId}`);
			const token = `vn-user-${userId}-${sha256(`${userId}:${core.state.tokens.size}:${Date.now()}`).slice(0, 16)}`;
			core.state.tokens.set(token, { service: 'vn', status: 'valid', userId: Number(userId) });
			return token;
		},
		setProfile: (settings) => setProfile(core, settings),
		profile: () => profileView(core),
	};
}

function configure(core: Core, settings: SandboxSettings): Required<SandboxSettings> {
	if (settings.callbackStyle !== undefined) {
		if (!['json', 'form', 'query', 'upper', 'lower'].includes(settings.callbackStyle))
			throw new Error('callbackStyle must be json, form, query, upper or lower');
		core.config.callbackStyle = settings.callbackStyle;
	}
	if (settings.callbackDelayMs !== undefined)
		core.config.callbackDelayMs = Math.max(0, Number(settings.callbackDelayMs));
	if (settings.callStartRepeats !== undefined) {
		const repeats = Number(settings.callStartRepeats);
		if (!Number.isInteger(repeats) || repeats < 1 || repeats > 10)
			throw new Error('callStartRepeats must be a whole number from 1 to 10');
		core.config.callStartRepeats = repeats;
	}
	if (settings.callbackAcceptEncoding !== undefined)
		core.config.callbackAcceptEncoding = String(settings.callbackAcceptEncoding);
	if (settings.callsAllowed !== undefined)
		core.state.account.callsAllowed = Boolean(settings.callsAllowed);
	if (settings.speechRecognition !== undefined)
		core.state.account.speechRecognition = Boolean(settings.speechRecognition);
	if (settings.recordingBytes !== undefined)
		core.state.recordingBytes = Math.max(46, Math.floor(Number(settings.recordingBytes)));
	if (settings.apiToken !== undefined) core.state.account.apiToken = Boolean(settings.apiToken);
	return {
		callbackStyle: core.config.callbackStyle,
		callbackDelayMs: core.config.callbackDelayMs,
		callStartRepeats: core.config.callStartRepeats ?? 1,
		callbackAcceptEncoding: core.config.callbackAcceptEncoding ?? '',
		callsAllowed: core.state.account.callsAllowed,
		speechRecognition: core.state.account.speechRecognition,
		recordingBytes: core.state.recordingBytes,
		apiToken: core.state.account.apiToken,
	};
}

/** Copies of the services' records: numbers, users, tags, prompts, senders, messages, call rows. */
function stateViews(
	core: Core,
	view: (row: CdrRow) => CdrView,
): Pick<
	SandboxControl,
	| 'virtualnum'
	| 'virtualnums'
	| 'pool'
	| 'users'
	| 'tags'
	| 'blacklist'
	| 'prompts'
	| 'promptData'
	| 'senders'
	| 'messages'
	| 'cdrs'
	| 'cdr'
> {
	return {
		virtualnum: (number) => {
			const record = core.state.numbers.get(digitsOnly(String(number)));
			return record ? copy(record) : undefined;
		},
		virtualnums: () => copy([...core.state.numbers.values()]),
		pool: () => core.state.sortedPool(),
		users: () => [...core.state.users.values()].map((u) => userView(core.state, u)),
		tags: () =>
			[...core.state.tags.values()].map((t) => ({
				...core.state.tagView(t),
				members: [...t.members],
			})),
		blacklist: () => copy(core.state.blacklist),
		prompts: () =>
			[...core.state.prompts.values()].map((p) => ({
				name: p.name,
				create_date: p.create_date,
				size: p.size,
				length: p.length,
				type: p.type,
				sha256: sha256(p.data),
			})),
		promptData: (name) => core.state.prompts.get(name)?.data,
		senders: () => copy([...core.state.senders.values()]),
		messages: () => copy(core.state.messages),
		cdrs: (filter = {}) => cdrRows(core, filter).map(view),
		cdr: (callUuid) => {
			const row = core.state.cdr.byUuid(String(callUuid));
			return row ? view(row) : undefined;
		},
	};
}

function cdrRows(
	core: Core,
	filter: { hasRecording?: boolean; virtualnum?: string; limit?: number },
): CdrRow[] {
	const limit = Math.max(1, Math.min(filter.limit ?? 1000, 100000));
	const where = filter.virtualnum ? 'WHERE cdr_ddi = ?' : '';
	const params = filter.virtualnum ? [digitsOnly(filter.virtualnum)] : [];
	const recordings = core.state.cdr.recordings;
	const accept = (row: CdrRow) =>
		filter.hasRecording === undefined || recordings.has(row.id) === filter.hasRecording;
	return core.state.cdr.scan(where, params, accept, limit);
}

function profileView(core: Core): ProfileView {
	const field = core.field;
	return {
		behaviours: FIELD_BEHAVIOURS.filter((b) => field.behaviours.has(b)),
		word: field.word,
		recordingDelayMs: field.recordingDelayMs,
		refusalStatus: field.refusalStatus,
		eventWords: { ...field.eventWords },
	};
}

function setProfile(core: Core, settings: ProfileSettings): ProfileView {
	const field = core.field;
	if (settings.profile !== undefined || settings.behaviours !== undefined) {
		const next = parseBehaviours(settings.profile, settings.behaviours);
		field.behaviours.clear();
		for (const behaviour of next) field.behaviours.add(behaviour);
	}
	if (settings.word !== undefined) field.word = validateWord(String(settings.word));
	if (settings.recordingDelayMs !== undefined) {
		const ms = Number(settings.recordingDelayMs);
		if (!(ms >= 0)) throw new Error('recordingDelayMs must be a number >= 0');
		field.recordingDelayMs = ms;
	}
	if (settings.refusalStatus !== undefined) {
		const status = Number(settings.refusalStatus);
		if (!Number.isInteger(status) || status < 200 || status > 599)
			throw new Error('refusalStatus must be an HTTP status (200-599)');
		field.refusalStatus = status;
	}
	for (const which of ['start', 'end'] as const) {
		const word = settings.eventWords?.[which];
		if (word !== undefined) field.eventWords[which] = validateWord(String(word));
	}
	return profileView(core);
}

function seed(core: Core, request: SeedRequest, view: (row: CdrRow) => CdrView): SeedResult {
	const out = seedCounts(core.state, request);
	if (request.virtualnum !== undefined)
		out.virtualnum = seedVirtualnum(core.state, request.virtualnum);
	if (request.cdr !== undefined) out.cdr = view(seedCdr(core.state, request.cdr));
	return out;
}

function count(value: unknown, name: string): number {
	const n = Number(value ?? 0);
	if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer`);
	return n;
}

/** The seeds given as a count: numbers, pool numbers, users, call rows, credit, recording size. */
function seedCounts(state: Core['state'], request: SeedRequest): SeedResult {
	const out: SeedResult = {};
	if (request.numbers !== undefined)
		out.numbers = state.addNumbers(count(request.numbers, 'numbers')).map((r) => r.virtualnum);
	if (request.poolNumbers !== undefined)
		out.pool = state.addPool(count(request.poolNumbers, 'poolNumbers'));
	if (request.users !== undefined) {
		const n = count(request.users, 'users');
		out.users = [];
		for (let i = 0; i < n; i++) {
			const user = state.createUser({
				email: `user${state.nextUserId}@example.com`,
				password: `Sandbox-${state.nextUserId}-pass`,
			});
			out.users.push(user.user_id);
		}
	}
	if (request.cdrs !== undefined) {
		out.cdrs = state.addCdrs(count(request.cdrs, 'cdrs'));
	}
	if (request.recordingBytes !== undefined)
		state.recordingBytes = Math.max(46, count(request.recordingBytes, 'recordingBytes'));
	if (request.credit !== undefined) out.credit = state.credit = count(request.credit, 'credit');
	return out;
}

function seedVirtualnum(state: Core['state'], given: Partial<VnRecord>): VnRecord {
	const fields = Object.fromEntries(
		Object.entries(given).filter(([key]) => (VN_FIELDS as string[]).includes(key)),
	) as Partial<VnRecord>;
	let number = digitsOnly(String(fields.virtualnum ?? ''));
	if (number === '') number = state.addNumbers(1)[0].virtualnum;
	if (number.length < 5) throw new Error('virtualnum must have at least 5 digits');
	state.pool.delete(number);
	state.released.delete(number);
	const existing = state.numbers.get(number);
	const record = existing
		? Object.assign(existing, fields, { virtualnum: number })
		: state.newRecord(number, fields);
	if (fields.call_destination_phone && fields.default_dest === undefined)
		record.default_dest = fields.call_destination_phone.split(',')[0].trim();
	state.numbers.set(number, record);
	return copy(record);
}

function seedCdr(state: Core['state'], fields: NonNullable<SeedRequest['cdr']>): CdrRow {
	const number =
		state.numbers.get(digitsOnly(String(fields.cdr_ddi ?? ''))) ?? [...state.numbers.values()][0];
	const status = fields.call_status ?? 'ANSWER';
	const duration = fields.call_duration ?? (status === 'ANSWER' ? 60 : 0);
	const start = fields.start_call ?? formatDateTime(new Date());
	const startDate = new Date(start.replace(' ', 'T'));
	if (fields.id !== undefined) state.cdr.continueFrom(fields.id);
	return state.cdr.insert(
		{
			start_call: start,
			end_call:
				fields.end_call ??
				(Number.isNaN(startDate.getTime())
					? start
					: formatDateTime(new Date(startDate.getTime() + duration * 1000))),
			call_duration: duration,
			cdr_ani: fields.cdr_ani ?? '0501234000',
			cdr_ddi: fields.cdr_ddi ?? number?.virtualnum ?? '',
			user_phone: fields.user_phone ?? number?.default_dest ?? '',
			user_name: fields.user_name ?? number?.description ?? '',
			call_status: status,
			onetouch: fields.onetouch ?? '',
			cdr_meta_data: fields.cdr_meta_data ?? '',
			gclid: fields.gclid ?? '',
		},
		fields.has_recording ?? status === 'ANSWER',
	);
}
