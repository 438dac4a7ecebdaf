// The control API over HTTP, under /_sandbox/ on both servers (JSON in and out, no authentication):
// each route calls the same function as the in-process control (control.mts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from './core.mts';
import type { Fault } from './faults.mts';
import { DEFAULT_TOKENS, type CallbackRecord, type SeedOptions } from './state.mts';
import { parseRequest, sendJson } from './http.mts';
import type {
	SandboxControl,
	ProfileSettings,
	SeedRequest,
	SandboxSettings,
	PlaceCallInput,
	AddCallsInput,
	InboundSmsInput,
} from './control.mts';

const ROUTES = [
	'POST   /_sandbox/reset            body: SeedOptions (optional)',
	'POST   /_sandbox/seed             body: { numbers?, poolNumbers?, cdrs?, users?, credit?, recordingBytes?, virtualnum?: {...}, cdr?: {...} }',
	'GET    /_sandbox/requests         ?service=vn|sms&operation=...',
	'DELETE /_sandbox/requests',
	'POST   /_sandbox/calls            body: { virtualnum, caller, answered?, status?, durationSec? }',
	'GET    /_sandbox/profile',
	'POST   /_sandbox/profile          body: { profile?: contract|field, behaviours?: [...], word?, recordingDelayMs?, refusalStatus?, eventWords? }',
	'POST   /_sandbox/sms/inbound      body: { virtualnum, from, text, time?, url? }',
	'GET    /_sandbox/routes',
	'POST   /_sandbox/cdrs             body: { count?, virtualnum?, caller?, status?, durationSec?, stepSec?, hasRecording? }',
	'GET    /_sandbox/callbacks        ?kind=call.start|call.end|sms.delivery',
	'DELETE /_sandbox/callbacks',
	'POST   /_sandbox/faults           body: { kind, server?, operation?, count?, ... }',
	'GET    /_sandbox/faults',
	'DELETE /_sandbox/faults',
	'GET    /_sandbox/otp              ?sender=...',
	'POST   /_sandbox/ip               body: { allowed }',
	'GET    /_sandbox/credit',
	'POST   /_sandbox/credit           body: { credit }',
	'POST   /_sandbox/flush',
	'POST   /_sandbox/settle',
	'POST   /_sandbox/config           body: { callbackStyle?, callbackDelayMs?, callStartRepeats?, callbackAcceptEncoding?, callsAllowed?, speechRecognition?, recordingBytes?, apiToken? }',
	'POST   /_sandbox/tokens           body: { user_id }',
	'GET    /_sandbox/state/{virtualnums|pool|users|tags|blacklist|prompts|senders|messages|cdrs}',
	'GET    /_sandbox/state/virtualnum ?virtualnum=...',
	'GET    /_sandbox/state/cdr        ?call_uuid=...',
];

function bool(value: unknown): boolean {
	return value === true || value === 'true' || value === 1 || value === '1';
}

/** One control request as a route handler sees it; `refuse` answers with another status than 200. */
interface ControlCall {
	control: SandboxControl;
	body: Record<string, unknown>;
	q: Record<string, string | undefined>;
	refuse: (status: number, answer: unknown) => Refused;
}
/** A route's answer sent with its own status (a 404 with the reason) instead of 200. */
class Refused {
	constructor(
		readonly status: number,
		readonly answer: unknown,
	) {}
}
type RouteHandler = (call: ControlCall) => unknown;

const OK = { ok: true };

/** The routes that record, inject or wait: requests, calls, callbacks, faults, flushing. */
const RECORD_ROUTES: Record<string, RouteHandler> = {
	'POST /_sandbox/reset': ({ control, body }) => (control.reset(body as SeedOptions), OK),
	'POST /_sandbox/seed': ({ control, body }) => control.seed(body as SeedRequest),
	'GET /_sandbox/requests': ({ control, q }) =>
		control.requests({ service: q.service as 'vn' | 'sms' | undefined, operation: q.operation }),
	'DELETE /_sandbox/requests': ({ control }) => (control.clearRequests(), OK),
	'POST /_sandbox/calls': ({ control, body }) =>
		control.placeCall({
			virtualnum: String(body.virtualnum ?? ''),
			caller: String(body.caller ?? ''),
			answered: body.answered === undefined ? undefined : bool(body.answered),
			status: body.status as PlaceCallInput['status'],
			durationSec: body.durationSec === undefined ? undefined : Number(body.durationSec),
		}),
	'GET /_sandbox/callbacks': ({ control, q }) =>
		control.callbacks({ kind: q.kind as CallbackRecord['kind'] | undefined }),
	'DELETE /_sandbox/callbacks': ({ control }) => (control.clearCallbacks(), OK),
	'POST /_sandbox/faults': ({ control, body }) => control.injectFaults(body as unknown as Fault),
	'GET /_sandbox/faults': ({ control }) => control.faults(),
	'DELETE /_sandbox/faults': ({ control }) => (control.clearFaults(), OK),
	'POST /_sandbox/flush': async ({ control }) => ({ callbacks: await control.flushScheduled() }),
	'POST /_sandbox/settle': async ({ control }) => (await control.settle(), OK),
	'POST /_sandbox/sms/inbound': ({ control, body }) =>
		control.inboundSms(body as unknown as InboundSmsInput),
	'GET /_sandbox/routes': ({ control }) => control.routes(),
	'POST /_sandbox/cdrs': ({ control, body }) => control.addCalls(body as AddCallsInput),
};

/** The routes that read or change the account's settings, profile, credit and tokens. */
const SETTING_ROUTES: Record<string, RouteHandler> = {
	'GET /_sandbox/otp': ({ control, q, refuse }) => {
		const otp = control.otp(q.sender ?? '');
		if (otp === undefined)
			return refuse(404, { error: `no verification code for sender "${q.sender ?? ''}"` });
		return { sender: q.sender, otp };
	},
	'POST /_sandbox/ip': ({ control, body }) => {
		control.setIpAllowed(bool(body.allowed));
		return { allowed: bool(body.allowed) };
	},
	'GET /_sandbox/credit': ({ control }) => ({ credit: control.credit() }),
	'POST /_sandbox/credit': ({ control, body }) => {
		control.setCredit(Number(body.credit));
		return { credit: control.credit() };
	},
	'POST /_sandbox/config': ({ control, body }) => control.configure(body as SandboxSettings),
	'GET /_sandbox/profile': ({ control }) => control.profile(),
	'POST /_sandbox/profile': ({ control, body }) => control.setProfile(body as ProfileSettings),
	'POST /_sandbox/tokens': ({ control, body }) => ({
		token: control.issueToken(Number(body.user_id)),
	}),
};

/** GET /_sandbox/state/<name>: copies of the state. */
function stateGetter(control: SandboxControl, name: string, q: ControlCall['q']) {
	const getters: Record<string, () => unknown> = {
		virtualnums: control.virtualnums,
		pool: control.pool,
		users: control.users,
		tags: control.tags,
		blacklist: control.blacklist,
		prompts: control.prompts,
		senders: control.senders,
		messages: control.messages,
		cdrs: () =>
			control.cdrs({
				hasRecording: q.hasRecording === undefined ? undefined : bool(q.hasRecording),
				virtualnum: q.virtualnum,
				limit: q.limit ? Number(q.limit) : undefined,
			}),
		virtualnum: () => control.virtualnum(q.virtualnum ?? '') ?? null,
		cdr: () => control.cdr(q.call_uuid ?? '') ?? null,
	};
	return Object.hasOwn(getters, name) ? getters[name] : undefined;
}

function routeHandler(core: Core, call: ControlCall, route: string): RouteHandler | undefined {
	if (route === 'GET /_sandbox')
		return () => ({
			routes: ROUTES,
			tokens: DEFAULT_TOKENS,
			vnUrl: core.vnUrl,
			smsUrl: core.smsUrl,
		});
	const own = (table: Record<string, RouteHandler>) =>
		Object.hasOwn(table, route) ? table[route] : undefined;
	const state = /^GET \/_sandbox\/state\/(\w+)$/.exec(route);
	return (
		own(RECORD_ROUTES) ??
		own(SETTING_ROUTES) ??
		(state ? stateGetter(call.control, state[1], call.q) : undefined)
	);
}

export async function handleControl(
	core: Core,
	control: SandboxControl,
	incoming: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const req = await parseRequest(incoming);
	const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<
		string,
		unknown
	>;
	const route = `${req.method} ${req.path.replace(/\/+$/, '')}`;
	const refuse = (status: number, answer: unknown) => new Refused(status, answer);
	const call: ControlCall = { control, body, q: req.query, refuse };
	try {
		const handler = routeHandler(core, call, route);
		if (!handler)
			return sendJson(res, 404, { error: `unknown control route ${route}`, routes: ROUTES });
		const answer = await handler(call);
		if (answer instanceof Refused) return sendJson(res, answer.status, answer.answer);
		sendJson(res, 200, answer ?? null);
	} catch (error) {
		sendJson(res, 400, { error: (error as Error).message });
	}
}
