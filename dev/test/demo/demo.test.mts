/**
 * `npm run demo` runs `runDemo()`: here it runs the same way (output in a temporary folder) and must
 * pass every step with the facts a newcomer reads in the report; a fault in one service
 * operation must fail that step (and so the exit status), and only that step.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { STUB_SUMMARY } from '../../demo/aiSummary.mts';
import { runDemo, table, type DemoResult } from '../../demo/demo.mts';
import { installStatus } from '../../harness/n8nInstall.mts';
import { timed } from '../busy.mts';

/** The AI step runs when the e2e install of n8n is here (and then must pass), else it says why not. */
const aiInstall = installStatus(['@n8n/n8n-nodes-langchain', 'n8n-nodes-base']);
const AI_STEP = 'Call ended → transcript → AI summary → CRM note (stub model)';
const allPassed = aiInstall.available
	? '✓ 8 of 8 steps passed'
	: '✓ 7 of 8 steps passed (1 not run)';

const dirs: string[] = [];
const tempDir = () => {
	const dir = mkdtempSync(join(tmpdir(), 'virtualnum-demo-test-'));
	dirs.push(dir);
	return dir;
};
after(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run demo (runDemo)', () => {
	let result: DemoResult;
	const lines: string[] = [];
	let outputDir: string;

	test('passes every step, quickly', async () => {
		outputDir = tempDir();
		const run = await timed(() =>
			runDemo({ outputDir, outputLabel: 'demo-output', print: (line) => lines.push(line) }),
		);
		result = run.value;
		assert.deepEqual(
			result.steps.map((step) => [step.title, step.ok, step.error, step.notRun]),
			[
				[
					'SMS campaign: a §30A advertisement that skips opted-out numbers, with its Summary',
					true,
					undefined,
					undefined,
				],
				[
					'Scheduled SMS campaign, with delivery reports into the trigger',
					true,
					undefined,
					undefined,
				],
				['Call ended → call record → recording', true, undefined, undefined],
				['Nightly call-record export', true, undefined, undefined],
				['Voice prompt uploaded and downloaded', true, undefined, undefined],
				['Blacklist a caller from a form', true, undefined, undefined],
				['Click-to-call from a webhook', true, undefined, undefined],
				[AI_STEP, true, undefined, aiInstall.available ? undefined : aiInstall.reason],
			],
		);
		assert.equal(result.ok, true);
		assert.ok(
			run.ms < 20_000,
			`the demo took ${result.ms} ms` +
				(run.busy ? ` (${run.cpu.toFixed(0)} ms of CPU, load ${run.load})` : ''),
		);
	});

	test('campaign: the advertisement went only to those who did not opt out, the Summary counts each recipient once', () => {
		const campaign = result.facts.campaign!;
		assert.equal(
			campaign.text,
			'פרסומת: Spring sale: 20% off everything until Sunday.\nCafe Dizengoff, 03-5551234\nלהסרה השיבו הסר',
		);
		assert.deepEqual(campaign.sent, ['0521234567', '0537654321']);
		const { summary } = campaign;
		assert.deepEqual(summary.notSent, { optedOut: 5, sameNumber: 1, outsideWindow: 0 });
		assert.equal(Number(summary.sent) + Number(summary.scheduled), 2);
		assert.deepEqual([summary.recipients, summary.failed, summary.failedItems], [8, 0, 1]);
		assert.deepEqual(
			campaign.failedRows.map((row) => [row.phone, row.name]),
			[['call me', 'Rina']],
		);
		assert.match(String(campaign.failedRows[0].error), /^To: "call me" has letters/);
	});

	test('SMS: one result per recipient with a message id and segments; a delivery report for each', () => {
		const sms = result.facts.sms!;
		assert.deepEqual(
			sms.map((r) => r.recipient),
			['972501234567', '0527654321', '972545550000'],
		);
		for (const r of sms) {
			assert.match(r.messageId, /^\d+$/);
			assert.equal(r.segments, 1);
			assert.equal(r.encoding, 'GSM-7');
		}
		const reports = result.facts.deliveryReports!;
		assert.deepEqual(
			reports.map((r) => [r.messageId, r.recipient, r.deliveryStatus]).sort(),
			sms
				.map((r) => [
					r.messageId,
					r.recipient,
					r.recipient.endsWith('0000') ? 'FAILED' : 'DELIVERED',
				])
				.sort(),
		);
	});

	test('call: the trigger registered on every number and gave the URLs back; the record and the recording are those of the call', () => {
		const call = result.facts.call!;
		assert.equal(call.virtualNumber, '0722000100');
		assert.equal(call.callerNumber, '0501234567');
		assert.equal(call.durationSec, 95);
		assert.equal(call.numbersRegistered, 6);
		assert.equal(call.restored, true);
		assert.equal(result.facts.callRecord!.callId, call.callId);
		assert.equal(result.facts.callRecord!.durationSec, 95);
		const recording = result.facts.recording!;
		assert.equal(basename(recording.path), `${call.callId}.wav`);
		const bytes = readFileSync(recording.path);
		assert.equal(bytes.length, recording.bytes);
		assert.equal(bytes.length, 65_536);
		assert.equal(bytes.toString('latin1', 0, 4), 'RIFF');
		assert.equal(recording.mimeType, 'audio/wav');
	});

	test('export: the calls of the day before the pinned run time', () => {
		assert.equal(result.facts.export!.day, '2024-12-01');
		assert.ok(result.facts.export!.rows > 5);
		assert.ok(result.facts.export!.withRecording > 0);
	});

	test('voice prompt: stored as demo_greeting, downloaded byte-identical into the output folder', () => {
		const prompt = result.facts.prompt!;
		assert.equal(prompt.promptName, 'demo_greeting');
		assert.equal(prompt.identical, true);
		assert.equal(readFileSync(prompt.path).length, prompt.bytes);
		assert.equal(basename(prompt.path), 'demo_greeting.wav');
	});

	test('blacklist and click-to-call', () => {
		assert.deepEqual(result.facts.blacklist, {
			callerNumber: '0509876543',
			scope: 'global',
			note: 'Repeated spam calls',
		});
		const call = result.facts.clickToCall!;
		assert.equal(call.destination, '972501234567');
		assert.equal(call.virtualnum, '0722000100');
		assert.equal(call.webhookAnswer.callId, call.callId);
	});

	test('AI example: the transcript of the pinned call reached the stub model, its summary the CRM note', (t) => {
		if (!aiInstall.available) {
			assert.ok(lines.join('\n').includes(`– not run: ${aiInstall.reason}`));
			return t.skip(`the step is not run here: ${aiInstall.reason}`);
		}
		const ai = result.facts.aiSummary!;
		assert.equal(ai.callId, '1733049840.1337');
		assert.match(ai.transcript, /Billboard Tel Aviv 2/);
		assert.equal(ai.modelRequests, 1);
		assert.equal(ai.summary, STUB_SUMMARY);
		assert.deepEqual(ai.note, {
			phone: '0501702585',
			callId: '1733049840.1337',
			startTime: '2024-12-01 10:44:00',
			note: STUB_SUMMARY,
			transcript: ai.transcript,
		});
		const report = lines.join('\n');
		for (const expected of [
			'Transcript read by Get Transcript:',
			'Summary the model gave (Summarize the call: one request to model gpt-5-mini',
			'CRM note received by the stand-in CRM (1 POST):',
		])
			assert.ok(report.includes(expected), `the report says "${expected}"`);
	});

	test('the report says what happened, names the files, and never shows a token', () => {
		const report = lines.join('\n');
		for (const expected of [
			'examples/sms-campaign-skip-opted-out.json',
			'The Summary, the one item of the run:',
			'examples/sms-campaign-scheduled.json',
			'Delivery reports received by the trigger: 3',
			'Recording saved: demo-output/',
			'byte-identical to the upload',
			'Blacklist entry: 0509876543, blocked on all virtual numbers',
			'The webhook answers the request with:',
			allPassed,
		])
			assert.ok(report.includes(expected), `the report says "${expected}"`);
		for (const token of ['vn-sandbox-token', 'sms-sandbox-token', 'sk-demo-stub'])
			assert.ok(!report.includes(token), 'no token in the report');
		assert.ok(existsSync(join(outputDir, 'demo_greeting.wav')));
	});
});

describe('a failing step', () => {
	test('fails the demo (ok false, so a non-zero exit status), names the step and the service error, and the other steps still run', async () => {
		const lines: string[] = [];
		const result = await runDemo({
			outputDir: tempDir(),
			print: (line) => lines.push(line),
			prepare: (sandbox) => {
				sandbox.control.injectFaults({
					kind: 'serviceError',
					server: 'vn',
					operation: 'add_number_to_blacklist',
					code: 2023,
				});
			},
		});
		assert.equal(result.ok, false);
		const failed = result.steps.filter((step) => !step.ok);
		assert.deepEqual(
			failed.map((step) => step.title),
			['Blacklist a caller from a form'],
		);
		assert.match(failed[0].error!, /Add to blacklist failed: .*2023/);
		assert.equal(result.steps.length, 8);
		const summary = aiInstall.available
			? '✗ 7 of 8 steps passed'
			: '✗ 6 of 8 steps passed (1 not run)';
		assert.ok(lines.join('\n').includes(summary), `the report says "${summary}"`);
	});
});

describe('table()', () => {
	test('pads columns to their widest cell', () => {
		assert.deepEqual(table(['a', 'bbb'], [['xx', 1]]), ['a    bbb', '--   ---', 'xx   1']);
	});
});

describe('demo/run.mts (what npm run demo starts after the build)', () => {
	const cli = (outputDir: string, env: Record<string, string> = {}) =>
		spawnSync(process.execPath, ['--import', 'tsx', 'dev/demo/run.mts'], {
			cwd: fileURLToPath(new URL('../../../', import.meta.url)),
			env: { ...process.env, DEMO_OUTPUT_DIR: outputDir, ...env },
			encoding: 'utf8',
			// A hang's guard, not a time target: a loaded machine takes a minute or more.
			timeout: 300_000,
		});

	test('prints the report and exits 0 when every step passed', () => {
		const outputDir = tempDir();
		const run = cli(outputDir);
		assert.equal(run.status, 0, run.stderr);
		assert.match(run.stdout, /^n8n-nodes-virtualnum demo/);
		assert.ok(run.stdout.includes(`${allPassed} in `), run.stdout.slice(-500));
		assert.ok(existsSync(join(outputDir, 'demo_greeting.wav')));
	});

	test('without the e2e install of n8n, the AI step is not run, says why, and the demo still passes', () => {
		const run = cli(tempDir(), { N8N_INSTALL_MODULES: tempDir() });
		assert.equal(run.status, 0, run.stderr);
		assert.ok(
			run.stdout.includes(
				'– not run: the e2e install of n8n (dev/e2e/node_modules) is absent or incomplete',
			),
			run.stdout.slice(-500),
		);
		assert.ok(run.stdout.includes('✓ 7 of 8 steps passed (1 not run) in '));
	});

	test('exits 1 with the reason when the demo cannot run', () => {
		const notADirectory = join(tempDir(), 'file');
		writeFileSync(notADirectory, 'x');
		const run = cli(notADirectory);
		assert.equal(run.status, 1);
		assert.match(run.stderr, /The demo could not run/);
	});
});
