/**
 * How deep the trigger's lifecycle runs before a request leaves: the stack at the moment n8n's HTTP
 * helper is called, counted from the node's lifecycle method n8n calls (checkExists, create, delete) to
 * the transport's function that calls the helper. Only the package's own frames are counted (V8 keeps
 * the async callers of each awaited call; n8n's and the engine's frames, and Promise.all, are not
 * the package's). A reader following a request through the code crosses the same functions.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import { HookContext } from 'n8n-core';
import type { IDataObject } from 'n8n-workflow';

import { startSandbox, type Sandbox } from '../../../dev/sandbox/index.mts';
import { TriggerHost, selectedNumbers } from '../../../dev/harness/trigger.mts';

/** The most frames a request may be from its lifecycle method (the method and the transport included). */
const MAX_DEPTH = 9;
const OWN_FRAME = /\/(dist\/)?(nodes|credentials)\/[^()]*\.(js|ts):\d+:\d+\)?$/;
/** The node's lifecycle methods, which n8n calls: where a request's path starts. */
const ENTRY = /^(\w+\.)?(checkExists|create|delete) .*VirtualNumberTrigger\.node\.(js|ts):/;

interface Seen {
	service: string;
	frames: string[];
}

/** The package's frames of the current stack, innermost first, up to the lifecycle method. */
function ownFrames(stack: string): string[] {
	const frames = stack
		.split('\n')
		.slice(1)
		.filter((line) => OWN_FRAME.test(line) && !line.includes('node_modules'))
		.map((line) => line.trim().replace(/^at (async )?/, ''));
	const entry = frames.findIndex((frame) => ENTRY.test(frame));
	return entry === -1 ? [] : frames.slice(0, entry + 1).map((frame) => frame.split(' ')[0]);
}

describe('Virtual Number Trigger → registration: a request is at most 9 frames from the lifecycle method', () => {
	let sandbox: Sandbox;
	let host: TriggerHost;
	const seen: Seen[] = [];
	const limit = Error.stackTraceLimit;
	before(async () => {
		sandbox = await startSandbox();
		host = await TriggerHost.start();
		Error.stackTraceLimit = Infinity;
		// Every hook context's helpers: n8n-core assigns them in the constructor.
		Object.defineProperty(HookContext.prototype, 'helpers', {
			configurable: true,
			set(helpers: Record<string, (...args: unknown[]) => unknown>) {
				const original = helpers.httpRequestWithAuthentication;
				const wrapped = {
					...helpers,
					httpRequestWithAuthentication(this: unknown, ...args: unknown[]) {
						const options = args[1] as { qs?: { service?: string }; url?: string };
						const service =
							options.qs?.service ?? /service=(\w+)/.exec(options.url ?? '')?.[1] ?? '?';
						seen.push({ service, frames: ownFrames(new Error().stack ?? '') });
						return original.apply(this, args);
					},
				};
				Object.defineProperty(this, 'helpers', {
					value: wrapped,
					writable: true,
					configurable: true,
				});
			},
		});
	});
	after(async () => {
		delete (HookContext.prototype as unknown as Record<string, unknown>).helpers;
		Error.stackTraceLimit = limit;
		await host.close();
		await sandbox.close();
	});
	beforeEach(() => {
		sandbox.control.reset();
		seen.length = 0;
	});

	const trigger = (parameters: IDataObject) =>
		host.add({
			parameters,
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
	const numbers = () => sandbox.control.virtualnums().map((r) => r.virtualnum);
	/** The deepest request of each lifecycle method and service, e.g. `createRegistration update_virtualnum: 8`. */
	function depths(): Record<string, number> {
		const out: Record<string, number> = {};
		for (const { service, frames } of seen) {
			assert.ok(frames.length > 0, `a ${service} request not under a lifecycle method`);
			const key = `${frames[frames.length - 2]?.split('.').pop()} ${service}`;
			out[key] = Math.max(out[key] ?? 0, frames.length);
		}
		return out;
	}
	function assertShallow(t: { diagnostic(message: string): void }) {
		const measured = depths();
		for (const [path, depth] of Object.entries(measured)) t.diagnostic(`${path}: ${depth} frames`);
		const deepest = seen.reduce((a, b) => (b.frames.length > a.frames.length ? b : a));
		t.diagnostic(`deepest: ${[...deepest.frames].reverse().join(' → ')}`);
		assert.ok(
			deepest.frames.length <= MAX_DEPTH,
			`${deepest.frames.length} frames: ${[...deepest.frames].reverse().join(' → ')}`,
		);
	}

	test('All Numbers: activation (pages read, numbers taken, re-read) and deactivation (restored)', async (t) => {
		const all = trigger({ events: ['callStarted', 'callEnded'], numbers: 'all' });
		await all.activate();
		await all.deactivate();
		assert.ok(seen.some(({ service }) => service === 'update_virtualnum'));
		assertShallow(t);
	});

	test('selected numbers, more than are read one by one: activation and deactivation', async (t) => {
		sandbox.control.seed({ numbers: 30 });
		const chosen = numbers().slice(0, 25);
		const some = trigger({
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: selectedNumbers(chosen),
		});
		await some.activate();
		await some.deactivate();
		assertShallow(t);
	});

	test('a registration failing on an update is rolled back: the put-backs are as shallow', async (t) => {
		const three = numbers().slice(0, 3);
		sandbox.control.injectFaults({ kind: 'http500', operation: 'update_virtualnum' });
		const failing = trigger({
			events: ['callEnded'],
			numbers: 'selected',
			virtualnums: selectedNumbers(three),
		});
		await assert.rejects(failing.activate());
		assert.ok(
			seen.filter(({ service }) => service === 'update_virtualnum').length > 3,
			'numbers were put back',
		);
		assertShallow(t);
	});
});
