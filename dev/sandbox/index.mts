// startSandbox(): both emulated services on their own ports, sharing one state, plus the control API.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';
import { Core } from './core.mts';
import type { CallbackStyle } from './core.mts';
import { createControl } from './control.mts';
import { handleControl } from './controlHttp.mts';
import type { SandboxControl } from './control.mts';
import { BadRequest, sendJson, sendText } from './http.mts';
import { handleSms } from './sms.mts';
import { DEFAULT_TOKENS } from './state.mts';
import type { SeedOptions } from './state.mts';
import { handleVn } from './vn/server.mts';

export type { SeedOptions, SandboxControl, CallbackStyle };
export type {
	SeedRequest,
	SeedResult,
	SandboxSettings,
	CdrView,
	ProfileSettings,
	ProfileView,
	InboundSmsInput,
	AddCallsInput,
} from './control.mts';
export type { FieldBehaviour, Profile } from './field.mts';
export { FIELD_BEHAVIOURS } from './field.mts';
import type { ProfileSettings } from './control.mts';
export type { Fault, FaultSpec, RedirectedRequest, RedirectTarget } from './faults.mts';
import { startRedirectTarget, type RedirectTarget } from './faults.mts';
export type { CallbackRecord, CallRoute, RecordedRequest, VnRecord } from './state.mts';
export { DEFAULT_TOKENS } from './state.mts';

/**
 * `profile: 'field'` (or single `behaviours`, `word`, …) makes the sandbox behave as integrators
 * observed the service; the same settings as `control.setProfile` / `POST /_sandbox/profile`.
 */
export interface SandboxOptions extends ProfileSettings {
	host?: string;
	vnPort?: number;
	smsPort?: number;
	callbackDelayMs?: number;
	callbackStyle?: CallbackStyle;
	/** The Accept-Encoding of callbacks ('' none, the default; `gzip, br`): core.mts. */
	callbackAcceptEncoding?: string;
	seed?: SeedOptions;
	log?: (line: string) => void;
}

export interface Sandbox {
	vnUrl: string;
	smsUrl: string;
	tokens: { vn: string; sms: string; expired: string; suspended: string; smsAccount: string };
	control: SandboxControl;
	/** The second listener the `redirect` fault points to: it records what reaches it (nothing should). */
	redirectTarget: Omit<RedirectTarget, 'close'>;
	close(): Promise<void>;
}

let sqlModule: Promise<SqlJsStatic> | undefined;

function listen(server: http.Server, port: number, host: string): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve((server.address() as AddressInfo).port);
		});
	});
}

function baseUrl(host: string, port: number): string {
	const shown = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
	return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const host = options.host ?? '127.0.0.1';
	const log = options.log ?? (() => undefined);
	const { core, control } = await createCore(options, log);
	const servers = await listenBoth(core, control, options, log);
	const redirectTarget = await startRedirectTarget(
		host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host,
	);
	core.redirectUrl = redirectTarget.url;

	let closing: Promise<void> | undefined;
	return {
		vnUrl: core.vnUrl,
		smsUrl: core.smsUrl,
		tokens: { ...DEFAULT_TOKENS },
		control,
		redirectTarget: {
			url: redirectTarget.url,
			requests: redirectTarget.requests,
			clear: redirectTarget.clear,
		},
		close: () =>
			(closing ??= (async () => {
				const closed = Promise.all(
					servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
				);
				// Hung requests ("hang" fault) and idle keep-alive sockets must not hold close() up.
				for (const server of servers) server.closeAllConnections();
				await core.close();
				await closed;
				await redirectTarget.close();
			})()),
	};
}

/** The shared state and its control API, under the profile asked for (options, then the environment). */
async function createCore(
	options: SandboxOptions,
	log: (line: string) => void,
): Promise<{ core: Core; control: SandboxControl }> {
	sqlModule ??= initSqlJs();
	const core = new Core(
		await sqlModule,
		{
			callbackStyle: options.callbackStyle ?? 'json',
			callbackDelayMs: options.callbackDelayMs ?? 50,
			callbackAcceptEncoding: options.callbackAcceptEncoding ?? '',
		},
		log,
		options.seed ?? {},
	);
	const control = createControl(core);
	try {
		// SANDBOX_PROFILE / SANDBOX_FIELD / SANDBOX_WORD: a whole test run under the field's reading.
		control.setProfile({
			...options,
			profile:
				options.profile ??
				((process.env.SANDBOX_PROFILE || undefined) as ProfileSettings['profile']),
			behaviours: options.behaviours ?? process.env.SANDBOX_FIELD,
			word: options.word ?? (process.env.SANDBOX_WORD || undefined),
		});
	} catch (error) {
		await core.close();
		throw error;
	}
	return { core, control };
}

/** Both services listening (control routes under /_sandbox on each); their URLs set on `core`. */
async function listenBoth(
	core: Core,
	control: SandboxControl,
	options: SandboxOptions,
	log: (line: string) => void,
): Promise<[http.Server, http.Server]> {
	const host = options.host ?? '127.0.0.1';
	const serve = (
		service: (core: Core, req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>,
	) =>
		http.createServer((req, res) => {
			const work = (req.url ?? '').startsWith('/_sandbox')
				? handleControl(core, control, req, res)
				: service(core, req, res);
			work.catch((error: unknown) => {
				if (error instanceof BadRequest) sendText(res, error.status, error.message);
				else {
					log(`internal error: ${(error as Error).stack ?? String(error)}`);
					sendJson(res, 500, { error: 'sandbox internal error' });
				}
			});
		});
	const vnServer = serve(handleVn);
	const smsServer = serve(handleSms);
	try {
		core.vnUrl = baseUrl(host, await listen(vnServer, options.vnPort ?? 0, host));
		core.smsUrl = baseUrl(host, await listen(smsServer, options.smsPort ?? 0, host));
	} catch (error) {
		vnServer.close();
		smsServer.close();
		await core.close();
		throw error;
	}
	return [vnServer, smsServer];
}
