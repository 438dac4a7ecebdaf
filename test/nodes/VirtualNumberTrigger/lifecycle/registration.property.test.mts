/**
 * Random sequences of what n8n does with two workflows' triggers on a few numbers: activate,
 * deactivate, an n8n restart (rebuilt from the saved static data), listen for a test event and
 * stop listening — each step with a fault injected by the sandbox at a random request of that
 * step (or none). The harness runs n8n's own paths, each sequence on one of n8n 2.40's two
 * activation paths (the ActiveWorkflowManager's, whose clean-up after a failed activation runs on
 * the database's static data, or the publication service's, which retries and cleans up in
 * memory). After every step:
 *
 * - a workflow whose trigger is registered has every number it covers pointing at it (and no two
 *   registered triggers cover one number);
 * - a number no registered trigger covers is as it was before the first step (URL and option), or
 *   points at the test URL of a trigger that is listening (or whose listening an n8n restart cut
 *   off: such a URL carries the original inside, and the next listening or activation takes it back);
 * - after the final clean-up (each workflow deactivated, listening started and stopped), every
 *   number is exactly as it was.
 *
 * FUZZ_SEED replays a run; PROPERTY_SEQUENCES sets how many sequences run.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { marksOf } from '../../../../nodes/shared/triggerUrl.ts';
import { startSandbox, type FaultSpec, type Sandbox } from '../../../../dev/sandbox/index.mts';
import {
	TriggerHost,
	selectedNumbers,
	startProxy,
	type TriggerInstance,
} from '../../../../dev/harness/trigger.mts';
import { prng, type Rng } from '../../../../dev/harness/prng.mts';

const SEQUENCES = Number(process.env.PROPERTY_SEQUENCES ?? 40);
const STEPS = 12;
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);

/** Faults of a service that failed (not of one that lies: a page one item short cannot be told from the last page). */
const FAULTS: FaultSpec[] = [
	{ kind: 'http500' },
	{ kind: 'html' },
	{ kind: 'empty' },
	{ kind: 'truncatedJson' },
	{ kind: 'xml' },
	{ kind: 'serviceError', code: 999 },
	{ kind: 'serviceError', code: 4020 },
	{ kind: 'unauthorized', text: 'Token Expired' },
];

type Step = 'activate' | 'deactivate' | 'restart' | 'listen' | 'stopListening';

interface Workflow {
	label: 'A' | 'B';
	trigger: TriggerInstance;
	covers: string[];
}

describe('Virtual Number Trigger → random sequences of activation, deactivation, failures, restarts and test listening', () => {
	let sandbox: Sandbox;
	let host: TriggerHost;
	let proxy: Awaited<ReturnType<typeof startProxy>>;
	let faultAt = 0;
	let seen = 0;
	let fault: FaultSpec = FAULTS[0];
	let injected = 0;
	before(async () => {
		sandbox = await startSandbox();
		host = await TriggerHost.start();
		proxy = await startProxy(sandbox.vnUrl, () => {
			seen++;
			if (seen === faultAt) {
				sandbox.control.injectFaults({ ...fault, server: 'vn' });
				injected++;
			}
		});
	});
	after(async () => {
		await proxy.close();
		await host.close();
		await sandbox.close();
	});

	function setUp(rng: Rng): {
		workflows: Workflow[];
		original: Map<string, { url: string; option: number }>;
	} {
		sandbox.control.reset();
		host.activation = rng.chance(0.5) ? 'publicationService' : 'activeWorkflowManager';
		const all = sandbox.control.virtualnums().map((record) => record.virtualnum);
		// Numbers with a CRM's URL (one with its own secret), and empty ones.
		const crm = [
			'https://crm.example.com/calls?source=vn',
			'https://hooks.example.org/in?secret=crm-secret&x=1',
		];
		sandbox.control.seed({
			virtualnum: { virtualnum: all[0], callback_url: crm[0], callback_url_option: 1 },
		});
		sandbox.control.seed({
			virtualnum: { virtualnum: all[2], callback_url: crm[1], callback_url_option: 3 },
		});
		const original = new Map(
			sandbox.control
				.virtualnums()
				.map((record) => [
					record.virtualnum,
					{ url: record.callback_url, option: record.callback_url_option },
				]),
		);
		const workflows = (['A', 'B'] as const).map((label): Workflow => {
			const scope = rng.chance(0.25) ? 'all' : 'selected';
			const covers =
				scope === 'all'
					? all
					: [...new Set(Array.from({ length: rng.int(1, 3) }, () => rng.pick(all.slice(0, 4))))];
			const parameters: IDataObject = {
				events: rng.pick([
					['callStarted'],
					['callEnded'],
					['callStarted', 'callEnded'],
					['callEnded', 'smsDelivery'],
				]),
				numbers: scope,
				...(scope === 'selected' ? { virtualnums: selectedNumbers(covers) } : {}),
				existingCallback: rng.chance(0.1) ? 'fail' : 'replace',
				options: rng.chance(0.5) ? { secret: `secret-of-${label}` } : {},
			};
			const trigger = host.add({
				name: `Trigger ${label}`,
				parameters,
				credentials: { virtualnumApi: { baseUrl: proxy.url, accessToken: sandbox.tokens.vn } },
			});
			return { label, trigger, covers };
		});
		return { workflows, original };
	}

	const current = (number: string) => {
		const record = sandbox.control.virtualnum(number)!;
		return { url: record.callback_url, option: record.callback_url_option };
	};

	function checkInvariant(
		workflows: Workflow[],
		original: Map<string, { url: string; option: number }>,
		orphans: Map<string, Workflow>,
		where: string,
	): void {
		for (const [number, before] of original) {
			const now = current(number);
			const holders = workflows.filter((w) => w.trigger.registered && w.covers.includes(number));
			assert.ok(holders.length <= 1, `${where}: ${number} is covered by two registered triggers`);
			if (holders.length === 1) {
				assert.ok(
					holders[0].trigger.holds(now.url),
					`${where}: ${number} must point at ${holders[0].label} (registered), not ${now.url}`,
				);
				const kept = marksOf(now.url).previous;
				assert.deepEqual(
					kept,
					before,
					`${where}: ${number} carries its original callback inside ${holders[0].label}'s URL`,
				);
				continue;
			}
			const listener = workflows.find(
				(w) =>
					(w.trigger.listening || orphans.get(number) === w) && w.trigger.holds(now.url, 'test'),
			);
			if (listener) {
				assert.deepEqual(
					marksOf(now.url).previous,
					before,
					`${where}: ${number} carries its original inside ${listener.label}'s test URL`,
				);
				continue;
			}
			assert.deepEqual(now, before, `${where}: ${number} is as it was`);
		}
	}

	async function runStep(step: Step, workflow: Workflow, rng: Rng): Promise<string> {
		seen = 0;
		faultAt = rng.chance(0.6) ? rng.int(1, 12) : 0;
		fault = rng.pick(FAULTS);
		const outcome = await (async () => {
			switch (step) {
				case 'activate':
					return await workflow.trigger.activate();
				case 'deactivate':
					return await workflow.trigger.deactivate();
				case 'restart':
					return await host.restart();
				case 'listen':
					return await workflow.trigger.listen();
				case 'stopListening':
					return await workflow.trigger.stopListening();
			}
		})().then(
			() => 'ok',
			(error: Error) => `failed: ${error.message.slice(0, 80)}`,
		);
		sandbox.control.clearFaults();
		faultAt = 0;
		return `${step} ${step === 'restart' ? '' : workflow.label}${seen >= faultAt && faultAt > 0 ? ` (${fault.kind} at request ${faultAt})` : ''} → ${outcome}`;
	}

	function nextStep(rng: Rng, workflows: Workflow[]): [Step, Workflow] {
		const workflow = rng.pick(workflows);
		// activation and test listening (and their ends) twice as often as a restart
		const toggle: Step = workflow.trigger.active ? 'deactivate' : 'activate';
		const listening: Step = workflow.trigger.listening ? 'stopListening' : 'listen';
		const choices: Step[] = ['restart', toggle, toggle, listening, listening];
		return [rng.pick(choices), workflow];
	}

	test(`${SEQUENCES} sequences of ${STEPS} steps over two workflows and six numbers keep every number where the user expects it (seed ${SEED})`, async () => {
		const rng = prng(SEED);
		const tally: Record<string, number> = {};
		const reasons: Record<string, number> = {};
		const started = Date.now();
		for (let sequence = 0; sequence < SEQUENCES; sequence++) {
			const { workflows, original } = setUp(rng);
			const log: string[] = [];
			/** Numbers left on a test URL by a restart that cut the listening off, and whose test URL it is. */
			const orphans = new Map<string, Workflow>();
			const context = () =>
				`sequence ${sequence} (seed ${SEED}, ${host.activation}): ${workflows.map((w) => `${w.label} ${JSON.stringify(w.trigger.options.parameters)}`).join('; ')}\n  ${log.join('\n  ')}`;
			try {
				for (let stepIndex = 0; stepIndex < STEPS; stepIndex++) {
					const [step, workflow] = nextStep(rng, workflows);
					if (step === 'restart') {
						for (const w of workflows.filter((candidate) => candidate.trigger.listening)) {
							for (const number of w.covers)
								if (w.trigger.holds(current(number).url, 'test')) orphans.set(number, w);
						}
					}
					const line = await runStep(step, workflow, rng);
					log.push(line);
					const key = `${step} ${/→ ok$/.test(line) ? 'ok' : 'failed'}`;
					const reason = line
						.replace(/^.*→ /, '')
						.replace(/[0-9]{6,}.*$/, '')
						.slice(0, 60);
					reasons[reason] = (reasons[reason] ?? 0) + 1;
					tally[key] = (tally[key] ?? 0) + 1;
					for (const [number, w] of orphans)
						if (!w.trigger.holds(current(number).url, 'test')) orphans.delete(number);
					checkInvariant(workflows, original, orphans, `after step ${stepIndex + 1}`);
				}
				// Clean-up as a user would: deactivate, and listen once more to take back a test URL a restart left behind.
				for (const { trigger } of workflows) {
					if (trigger.active) await trigger.deactivate();
					if (trigger.listening) await trigger.stopListening();
				}
				for (let round = 0; round < 2; round++) {
					for (const { trigger } of workflows) {
						await trigger.listen().then(
							async () => await trigger.stopListening(),
							() => undefined,
						);
					}
				}
				for (const [number, before] of original)
					assert.deepEqual(current(number), before, `at the end: ${number} is as it was`);
			} catch (error) {
				(error as Error).message = `${(error as Error).message}\n${context()}`;
				throw error;
			}
		}
		if (process.env.PROPERTY_REASONS) console.log(JSON.stringify(reasons, null, 1));
		console.log(
			`    ${SEQUENCES} sequences, ${SEQUENCES * STEPS} steps, ${injected} faults injected in ${Math.round((Date.now() - started) / 1000)} s: ${JSON.stringify(tally)}`,
		);
		assert.ok(injected > SEQUENCES, 'faults were injected');
	});
});
