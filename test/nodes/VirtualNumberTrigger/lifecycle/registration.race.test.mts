/**
 * Two workflows activated at the same moment on one number: exactly one owns it, the other's
 * activation fails with the usual "another workflow's trigger" error, whatever the order in which
 * their requests reach the service. A gate in front of the sandbox holds every request; the test
 * releases them one at a time and, wherever both activations have a request waiting, tries both
 * choices (every interleaving at every request boundary, explored depth first).
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, test } from 'node:test';

import { registeredUrl } from '../../../../nodes/shared/triggerUrl.ts';
import { startSandbox, type Sandbox } from '../../../../dev/sandbox/index.mts';
import { setCallbackAtService } from '../../../../dev/harness/serviceCalls.mts';
import {
	TriggerHost,
	selectedNumbers,
	type TriggerInstance,
} from '../../../../dev/harness/trigger.mts';

type Side = 'a' | 'b';
const FOREIGN = 'https://crm.example.com/hooks/calls';
const OTHER_WORKFLOW = (host: TriggerHost) =>
	`${host.webhookBaseUrl}/0b7c2a4e-1111-4222-8333-944455556666/webhook?vnt=live&vnt_prev=2`;

interface Held {
	side: Side;
	service: string;
	release: () => void;
}

/**
 * Forwards `/<side>/...` to the sandbox. While `holding`, each request waits until released;
 * `beforeForward` may act just before a request reaches the sandbox.
 */
async function startGate(target: string) {
	const held: Held[] = [];
	const gate = {
		held,
		holding: true,
		answered: 0,
		beforeForward: undefined as undefined | ((side: Side, service: string) => Promise<void>),
		url: '',
		close: async () => {},
	};
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			void (async () => {
				const match = /^\/(a|b)(\/.*)$/.exec(req.url ?? '')!;
				const side = match[1] as Side;
				const url = new URL(match[2], target);
				const service = url.searchParams.get('service') ?? '';
				if (gate.holding)
					await new Promise<void>((release) => held.push({ side, service, release }));
				await gate.beforeForward?.(side, service);
				const headers = { ...req.headers } as Record<string, string>;
				delete headers.host;
				const raw = Buffer.concat(chunks);
				const answer = await fetch(url, {
					method: req.method,
					headers,
					body: raw.length > 0 ? raw : undefined,
				});
				const bytes = Buffer.from(await answer.arrayBuffer());
				res.writeHead(answer.status, {
					'Content-Type': answer.headers.get('content-type') ?? 'text/plain',
				});
				res.end(bytes, () => gate.answered++);
			})();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	gate.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	gate.close = async () => {
		server.closeAllConnections();
		await new Promise<void>((resolve) => server.close(() => resolve()));
	};
	return gate;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Virtual Number Trigger → two activations on one number at the same moment', () => {
	let sandbox: Sandbox;
	let host: TriggerHost;
	let gate: Awaited<ReturnType<typeof startGate>>;
	before(async () => {
		sandbox = await startSandbox();
		host = await TriggerHost.start();
		gate = await startGate(sandbox.vnUrl);
	});
	after(async () => {
		await gate.close();
		await host.close();
		await sandbox.close();
	});
	beforeEach(() => {
		sandbox.control.reset();
		gate.holding = true;
		gate.beforeForward = undefined;
		gate.held.length = 0;
	});

	const firstNumbers = (count: number) =>
		sandbox.control
			.virtualnums()
			.filter((r) => r.active_status === 1)
			.slice(0, count)
			.map((r) => r.virtualnum);
	const trigger = (side: Side, numbers: string[]) =>
		host.add({
			parameters: {
				events: ['callStarted', 'callEnded'],
				numbers: 'selected',
				virtualnums: selectedNumbers(numbers),
			},
			credentials: {
				virtualnumApi: { baseUrl: `${gate.url}/${side}`, accessToken: sandbox.tokens.vn },
			},
		});
	const callbackOf = (number: string) => {
		const record = sandbox.control.virtualnum(number)!;
		return { url: record.callback_url, option: record.callback_url_option };
	};
	/** Sets a number's callback straight at the service (as a user, or another n8n, would). */
	const setCallback = (number: string, url: string, option: number) =>
		setCallbackAtService(sandbox, number, url, option);

	/** Waits until the released request was answered and its activation either asks again or rests. */
	async function settle(answeredBefore?: number) {
		for (let i = 0; i < 400 && gate.answered === answeredBefore; i++) await pause(5);
		let count = -1;
		while (count !== gate.held.length) {
			count = gate.held.length;
			await pause(30);
		}
	}

	/**
	 * Runs both activations, releasing held requests as `prefix` says where both wait (then 'a').
	 * Returns the choices made where both waited, and how each activation ended.
	 */
	async function interleave(prefix: Side[]) {
		const [number] = firstNumbers(1);
		await setCallback(number, FOREIGN, 1);
		const triggers: Record<Side, TriggerInstance> = {
			a: trigger('a', [number]),
			b: trigger('b', [number]),
		};
		const outcome: Partial<Record<Side, 'ok' | Error>> = {};
		const runs = (['a', 'b'] as Side[]).map(async (side) => {
			try {
				await triggers[side].activate();
				outcome[side] = 'ok';
			} catch (error) {
				outcome[side] = error as Error;
			}
		});
		const choices: Side[] = [];
		for (let guard = 0; guard < 200; guard++) {
			await settle();
			if (outcome.a !== undefined && outcome.b !== undefined) break;
			const waiting = new Set(gate.held.map((h) => h.side));
			if (waiting.size === 0) continue;
			let side: Side = waiting.has('a') ? 'a' : 'b';
			if (waiting.size === 2) {
				side = prefix[choices.length] ?? 'a';
				choices.push(side);
			}
			const index = gate.held.findIndex((h) => h.side === side);
			const [next] = gate.held.splice(index, 1);
			const answered = gate.answered;
			next.release();
			await settle(answered);
		}
		await Promise.all(runs);
		return { number, triggers, outcome, choices };
	}

	test('exactly one owns the number, at every interleaving of their requests', async () => {
		const explored: string[] = [];
		const queue: Side[][] = [[]];
		while (queue.length > 0 && explored.length < 64) {
			const prefix = queue.shift()!;
			sandbox.control.reset();
			gate.holding = true;
			const { number, triggers, outcome, choices } = await interleave(prefix);
			const order = choices.join('') || '(no choice)';
			explored.push(order);
			// Where this run chose 'a' beyond its prefix, the other choice is another interleaving.
			for (let i = prefix.length; i < choices.length; i++)
				if (choices[i] === 'a') queue.push([...choices.slice(0, i), 'b']);

			const winners = (['a', 'b'] as Side[]).filter((side) => outcome[side] === 'ok');
			assert.equal(winners.length, 1, `${order}: exactly one activation succeeds`);
			const winner = triggers[winners[0]];
			const loser = outcome[winners[0] === 'a' ? 'b' : 'a'] as Error;
			assert.match(
				loser.message,
				/already reports its calls to another workflow's Virtual Number Trigger/,
				`${order}: the other fails with the usual error`,
			);
			assert.deepEqual(
				callbackOf(number),
				{
					url: registeredUrl(winner.webhookUrl, '', 'live', { url: FOREIGN, option: 1 }),
					option: 3,
				},
				`${order}: the number carries the winner's URL, the CRM's URL kept inside`,
			);
			gate.holding = false;
			await winner.deactivate();
			assert.deepEqual(callbackOf(number), { url: FOREIGN, option: 1 }, `${order}: restored`);
		}
		assert.ok(explored.length > 1, `several interleavings were explored: ${explored.join(', ')}`);
		console.log(`interleavings explored: ${explored.join(', ')}`);
	});

	test("another n8n writes between this activation's update and its check: the number is left to it, the other numbers are given back", async () => {
		const [taken, mine] = firstNumbers(2);
		await setCallback(mine, FOREIGN, 1);
		gate.holding = false;
		let updates = 0;
		gate.beforeForward = async (_side, service) => {
			if (service === 'update_virtualnum') updates++;
			// The first read after both updates is the activation's check.
			if (service === 'get_virtualnum' && updates === 2 && gate.beforeForward) {
				gate.beforeForward = undefined;
				await setCallback(taken, OTHER_WORKFLOW(host), 3);
			}
		};
		const t = trigger('a', [taken, mine]);
		await assert.rejects(t.activate(), (error: Error) =>
			error.message.includes(
				`The number already reports its calls to another workflow's Virtual Number Trigger: ${taken}`,
			),
		);
		assert.deepEqual(
			callbackOf(taken),
			{ url: OTHER_WORKFLOW(host), option: 3 },
			'left to the other',
		);
		assert.deepEqual(callbackOf(mine), { url: FOREIGN, option: 1 }, 'given back as it was');
	});
});
