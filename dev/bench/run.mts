/**
 * `npm run bench`: the package's benchmarks against the sandbox on loopback, each node run going
 * through the test harness (n8n-core's real WorkflowExecute), each side by side with what it is
 * compared with in the same run (n8n's floor, a plain fetch client, n8n's own nodes), the sides
 * alternating, several repetitions, medians reported. dev/docs/benchmarks.md says what each row is.
 * The rows: rows.mts; their tasks: send.mts, calls.mts; how a task is measured (a fresh child process
 * each): measure.mts; what is written: report.mts.
 *
 * Writes dev/bench/results.json and the results section of dev/docs/benchmarks.md, and prints the tables.
 *   npm run bench                               all benchmarks
 *   npm run bench -- --only bulk-send,trigger   some (matched against the row names)
 *   npm run bench -- --reps 3                   repetitions of every measurement
 *   npm run bench -- --no-write                 print only (--json: every row's figures too)
 *   npm run bench -- --rewrite                  measure nothing: write the page's results section again
 *                                               from dev/bench/results.json (after editing report.mts)
 *   npm run bench -- --only bulk-send --merge    the rows measured replace the same rows of
 *                                               dev/bench/results.json; the others are kept, and the page
 *                                               says which rows were run again, when
 *   npm run bench -- --real-n8n [--items 10000,100000] [--reps 3]
 *                                               measure in the real n8n 2.40.7 instead (realN8n.mts)
 *   npm run bench -- --poll-recordings [--reps 3]
 *                                               the Call Record Trigger's memory over a poll of 100
 *                                               records with 1 MB recordings, in the real n8n (pollRecordings.mts)
 *   npm run bench -- --route-call [--rounds 5]  Route Call's answer time against n8n's Webhook + Respond
 *                                               to Webhook, 1, 10 and 50 calls at once, and its deadline,
 *                                               in the real n8n (routeCall.mts)
 *   npm run bench -- --fields-parameters '{…}'  other Send parameters for the "recipients from input
 *                                               fields" rows (also BENCH_FIELDS_PARAMETERS; default:
 *                                               Recipients From: Input Fields, the phone field)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { IDataObject } from 'n8n-workflow';

import { startSandbox } from '../sandbox/index.mts';
import { baseNodesStatus, log, removeUserFolder } from './measure.mts';
import { machine, printTable, write, writePage, type Row, type Run } from './report.mts';
import {
	alternatives,
	bulkSend,
	cdrExport,
	perItemPattern,
	recording,
	triggerFullPath,
	triggerFunction,
	type Settings,
} from './rows.mts';
import { FIELDS_PARAMETERS } from './send.mts';

const HERE = fileURLToPath(new URL('.', import.meta.url));

const args = process.argv.slice(2);
const argValue = (name: string) => {
	const index = args.indexOf(name);
	return index >= 0 ? args[index + 1] : undefined;
};
const only = (argValue('--only') ?? '')
	.split(',')
	.map((part) => part.trim())
	.filter(Boolean);
const repsOverride = argValue('--reps') === undefined ? undefined : Number(argValue('--reps'));
const fields = argValue('--fields-parameters') ?? process.env.BENCH_FIELDS_PARAMETERS;

const settings: Settings = {
	wanted: (name) => only.length === 0 || only.some((part) => name.includes(part)),
	reps: (cheap) => repsOverride ?? (cheap ? 5 : 3),
	fieldsParameters: fields ? (JSON.parse(fields) as IDataObject) : FIELDS_PARAMETERS,
};

/**
 * The real-n8n measurements run as their own script, with the other arguments (--items, --reps):
 * `--real-n8n` Bulk SMS Send (realN8n.mts), `--poll-recordings` the Call Record Trigger's memory
 * with 1 MB recordings (pollRecordings.mts), `--route-call` Route Call's answer time (routeCall.mts).
 */
function runScript(flag: string, script: string): never {
	const rest = args.filter((arg) => arg !== flag);
	const child = spawnSync(process.execPath, ['--import', 'tsx', join(HERE, script), ...rest], {
		stdio: 'inherit',
	});
	process.exit(child.status ?? 1);
}

async function main() {
	if (args.includes('--real-n8n')) runScript('--real-n8n', 'realN8n.mts');
	if (args.includes('--poll-recordings')) runScript('--poll-recordings', 'pollRecordings.mts');
	if (args.includes('--route-call')) runScript('--route-call', 'routeCall.mts');
	if (args.includes('--rewrite')) {
		const saved = JSON.parse(readFileSync(join(HERE, 'results.json'), 'utf8')) as {
			run: Run;
			rows: Row[];
		};
		writePage(join(HERE, '..', 'docs', 'benchmarks.md'), saved.run, saved.rows);
		log('written: dev/docs/benchmarks.md (results section, from dev/bench/results.json)');
		return;
	}
	const atStart = machine();
	const started = new Date();
	const base = baseNodesStatus();
	log(
		`machine: ${atStart.cpu}, ${atStart.memory}, Node ${atStart.node}, load ${atStart.loadAverage.join(' ')}`,
	);
	log(
		base.available
			? `n8n-nodes-base ${base.version} from dev/e2e/node_modules`
			: `n8n's own nodes skipped: ${base.reason}`,
	);
	const rows = await measureRows();
	process.stdout.write(`\n${printTable(rows)}\n\n`);
	if (args.includes('--json')) process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
	if (args.includes('--no-write')) return;
	const run: Run = {
		started: started.toISOString().slice(0, 16).replace('T', ' '),
		command: [
			'npm run bench',
			...(args.length > 0
				? ['--', ...args.map((arg) => (/[\s{"']/.test(arg) ? `'${arg}'` : arg))]
				: []),
		].join(' '),
		machineAtStart: atStart,
		loadAverageAtEnd: machine().loadAverage,
		n8nNodesBase: base.available
			? `n8n-nodes-base ${base.version} (e2e install)`
			: `not available (${base.reason}): those rows are skipped`,
		fieldsParameters: settings.fieldsParameters ?? null,
	};
	if (args.includes('--merge')) return mergeResults(run, rows);
	write(join(HERE, 'results.json'), join(HERE, '..', 'docs', 'benchmarks.md'), run, rows);
	log('written: dev/bench/results.json, dev/docs/benchmarks.md (results section)');
}

/** Every benchmark's rows (those not asked for are left out), on one sandbox. */
async function measureRows(): Promise<Row[]> {
	const sandbox = await startSandbox();
	const rows: Row[] = [];
	try {
		rows.push(...(await bulkSend(sandbox, settings)));
		rows.push(...(await alternatives(sandbox, settings)));
		rows.push(...(await perItemPattern(sandbox, settings)));
		rows.push(...(await cdrExport(sandbox, settings)));
		rows.push(...(await recording(sandbox, settings)));
		rows.push(...(await triggerFunction(settings)));
		rows.push(...(await triggerFullPath(settings)));
	} finally {
		await sandbox.close();
		removeUserFolder();
	}
	return rows;
}

/** --merge: the rows measured now replace their namesakes in the saved results; the others stay. */
function mergeResults(run: Run, rows: Row[]): void {
	const saved = JSON.parse(readFileSync(join(HERE, 'results.json'), 'utf8')) as {
		run: Run;
		rows: Row[];
	};
	const measured = new Map(rows.filter((row) => !row.skipped).map((row) => [row.name, row]));
	const merged = saved.rows.map((row) => measured.get(row.name) ?? row);
	for (const row of measured.values())
		if (!saved.rows.some((old) => old.name === row.name)) merged.push(row);
	const rerun = { ...run, rows: [...measured.keys()] };
	// An earlier rerun keeps only the rows this one did not measure again.
	const earlier = (saved.run.reruns ?? [])
		.map((old) => ({ ...old, rows: old.rows.filter((name) => !measured.has(name)) }))
		.filter((old) => old.rows.length > 0);
	write(
		join(HERE, 'results.json'),
		join(HERE, '..', 'docs', 'benchmarks.md'),
		{ ...saved.run, reruns: [...earlier, rerun] },
		merged,
	);
	log(`merged into dev/bench/results.json and dev/docs/benchmarks.md: ${rerun.rows.join(', ')}`);
}

await main();
