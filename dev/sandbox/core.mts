// The runtime shared by both servers and the control API: current state, faults, configuration,
// timers for scheduled work, and the outgoing callbacks still in flight.
import type { SqlJsStatic } from 'sql.js';
import { FaultQueue } from './faults.mts';
import { defaultFieldSettings } from './field.mts';
import type { FieldBehaviour, FieldSettings } from './field.mts';
import type { ParsedRequest } from './http.mts';
import { State } from './state.mts';
import type { SeedOptions } from './state.mts';

/**
 * json/form: POST; query: GET; upper: GET with the upper-case fields public integrations report
 * (CLI, DDI, UUID, CALLSTATUS…); lower: GET with the provider's lower-case template (cli, uuid…).
 */
export type CallbackStyle = 'json' | 'form' | 'query' | 'upper' | 'lower';

export interface CoreConfig {
	callbackStyle: CallbackStyle;
	callbackDelayMs: number;
	/** How many times a call's start callback is sent (integrators report repeats); default 1. */
	callStartRepeats?: number;
	/**
	 * The Accept-Encoding callbacks are sent with ('' none, the default; `gzip, br` as Python
	 * requests or Node fetch send it): the answer is decoded by its Content-Encoding, as those
	 * clients do, so a compressed answer without one reads as the bytes it is.
	 */
	callbackAcceptEncoding?: string;
}

interface ScheduledTask {
	timer: NodeJS.Timeout;
	at: number;
	run: () => Promise<unknown>;
}

// setTimeout cannot wait longer than this; longer waits are done in hops.
const MAX_TIMER_MS = 2_147_483_647;

export class Core {
	state: State;
	readonly faults = new FaultQueue();
	/** The field profile's behaviours and the identifier word (field.mts). */
	readonly field: FieldSettings = defaultFieldSettings();
	vnUrl = '';
	smsUrl = '';
	/** Where the redirect fault sends clients: the redirect target listener (index.mts). */
	redirectUrl = '';
	private readonly closing = new AbortController();
	private readonly inflight = new Set<Promise<unknown>>();
	private readonly scheduled = new Map<number, ScheduledTask>();
	private nextTaskId = 1;

	constructor(
		readonly SQL: SqlJsStatic,
		readonly config: CoreConfig,
		readonly log: (line: string) => void,
		private readonly defaultSeed: SeedOptions,
	) {
		this.state = new State(SQL, defaultSeed);
	}

	/** Whether one behaviour of the field profile is on. */
	is(behaviour: FieldBehaviour): boolean {
		return this.field.behaviours.has(behaviour);
	}

	get signal(): AbortSignal {
		return this.closing.signal;
	}

	get closed(): boolean {
		return this.closing.signal.aborted;
	}

	/** Logs a request for the control API: never the bytes of uploaded files, only size and hash. */
	record(server: 'vn' | 'sms', req: ParsedRequest, operation: string): void {
		this.state.requests.push({
			server,
			method: req.method,
			path: req.path,
			query: req.query,
			headers: req.headers,
			body: req.body,
			operation,
			files:
				req.files.length > 0
					? req.files.map(({ field, filename, contentType, size, sha256 }) => ({
							field,
							filename,
							contentType,
							size,
							sha256,
						}))
					: undefined,
			rawBodySize: req.rawBodySize,
			receivedAt: req.receivedAt,
		});
	}

	/** Keeps a promise until it settles, so settle() and close() can wait for it. */
	track<T>(promise: Promise<T>): Promise<T> {
		const tracked = promise.finally(() => this.inflight.delete(tracked));
		this.inflight.add(tracked);
		tracked.catch(() => undefined);
		return tracked;
	}

	/** Runs `run` at the epoch time `at` (real timers; flushScheduled() runs everything now). */
	schedule(at: number, run: () => Promise<unknown>): void {
		if (this.closed) return;
		const id = this.nextTaskId++;
		const arm = () => {
			const wait = Math.max(0, at - Date.now());
			const timer = setTimeout(
				() => {
					if (at - Date.now() > 0) return arm();
					this.scheduled.delete(id);
					void this.track(run());
				},
				Math.min(wait, MAX_TIMER_MS),
			);
			timer.unref();
			this.scheduled.set(id, { timer, at, run });
		};
		arm();
	}

	/** Runs every scheduled task now (in due-time order) and waits for all of them. */
	async flushScheduled(): Promise<void> {
		const tasks = [...this.scheduled.values()].sort((a, b) => a.at - b.at);
		this.scheduled.clear();
		for (const task of tasks) clearTimeout(task.timer);
		await Promise.all(tasks.map((task) => this.track(task.run())));
	}

	/** Waits until no callback or other tracked work is in flight. */
	async settle(): Promise<void> {
		while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
	}

	private cancelScheduled(): void {
		for (const task of this.scheduled.values()) clearTimeout(task.timer);
		this.scheduled.clear();
	}

	reset(seed?: SeedOptions): void {
		this.cancelScheduled();
		this.faults.clear();
		this.state.close();
		this.state = new State(this.SQL, { ...this.defaultSeed, ...(seed ?? {}) });
	}

	async close(): Promise<void> {
		this.closing.abort();
		this.cancelScheduled();
		await this.settle();
		this.state.close();
	}
}
