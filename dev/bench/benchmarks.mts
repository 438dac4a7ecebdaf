/**
 * The benchmarks: for each, the tasks of its sides (run alternately in fresh processes), and the
 * rows made of their medians. Descriptions and targets: dev/docs/benchmarks.md.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../sandbox/index.mts';
import type { Task } from './child.mts';
import { baseNodesStatus } from './n8n.mts';
import { check, ratio, row, skippedRow, type Check, type Row } from './rows.mts';
import {
	bestOf,
	cpu,
	extraOf,
	log,
	measureSides,
	medianOf,
	medianWall,
	peakMB,
	peakRuns,
	round,
	toMB,
	wall,
	wallRuns,
	type Side,
} from './sides.mts';
import type { Variant } from './tasks/sms.mts';

export interface Settings {
	wanted(name: string): boolean;
	reps(cheap: boolean): number;
	/** The node parameters of the "recipients from input fields" mode, once the node has it. */
	fieldsParameters?: IDataObject;
}

export const CAMPAIGN = 10_000;
/** Digits that start the numbers of the children's warm-up sends (campaign offset 5,000,000: +972 50-6xxxxxx). */
const WARM_UP_DEST = '972506';
const BATCH_SIZES = [100, 1000];
const FIELDS_MISSING =
	'no Send parameters for the "recipients from input fields" rows (dev/bench/tasks/sms.mts FIELDS_PARAMETERS, or --fields-parameters)';

const nodeBaseMissing = () => {
	const status = baseNodesStatus();
	return status.available ? undefined : `n8n's own nodes are not available: ${status.reason}`;
};

// ---- bulk send ----------------------------------------------------------------------------------

function smsSetup(sandbox: Sandbox) {
	const prepare = () => {
		sandbox.control.reset();
		sandbox.control.setCredit(1_000_000_000);
	};
	// The batches of the measured run; the child's warm-up sends to other numbers (WARM_UP_DEST).
	const sends = () =>
		sandbox.control
			.requests({ service: 'sms', operation: 'send_sms' })
			.filter(
				(request) =>
					!String((request.body as Array<{ dest?: string }>)[0]?.dest ?? '').startsWith(
						WARM_UP_DEST,
					),
			).length;
	const target = (batchSize: number) => ({
		smsUrl: sandbox.smsUrl,
		token: sandbox.tokens.sms,
		items: CAMPAIGN,
		batchSize,
	});
	return { prepare, sends, target };
}

const FLOOR_HTTP_TARGET = "≤ 1.25× the floor sending the same batches through n8n's HTTP helper";

const VARIANT_NAME: Record<Variant, string> = {
	expression: '',
	fixed: '-fixed-to',
	fields: '-fields',
};
const VARIANT_WORDS: Record<Variant, string> = {
	expression: "To = {{ $json.phone }} (each item's own number, an n8n expression per item)",
	fixed:
		'To a fixed text (one value for all items: no n8n expression per item), Batches in Flight 4',
	fields:
		"recipients from input fields (the number read from each item's `phone` field by the node, no expression), Batches in Flight 4",
};

const requestsCheck = (side: Side, expected: number, produced: number) =>
	check(
		`requests = ${expected}, ${produced.toLocaleString('en')} messages sent`,
		side.requests.every((n) => n === expected) && side.runs.every((m) => m.produced === produced)
			? expected
			: side.requests[0],
		expected,
		'equal',
	);

/** Node, floor and fetch for one batch size and one way of giving To. */
async function bulkSendRow(
	sandbox: Sandbox,
	settings: Settings,
	batchSize: number,
	variant: Variant,
): Promise<Row | undefined> {
	const name = `bulk-send-batch-${batchSize}${VARIANT_NAME[variant]}`;
	if (!settings.wanted(name)) return undefined;
	const description = `${CAMPAIGN.toLocaleString('en')} items → Bulk SMS Send, Batch Size ${batchSize}, ${VARIANT_WORDS[variant]}`;
	const targets = [check(FLOOR_HTTP_TARGET, null, 1.25, 'atMost')];
	if (variant === 'fields' && !settings.fieldsParameters)
		return skippedRow(name, description, 'ms (wall)', FIELDS_MISSING, targets);
	log(name);
	const { prepare, sends, target } = smsSetup(sandbox);
	const sms = { ...target(batchSize), variant, fieldsParameters: settings.fieldsParameters };
	const sides = await measureSides(
		name,
		settings.reps(true),
		{
			node: (): Task => ({ kind: 'smsNode', ...sms }),
			floor: (): Task => ({ kind: 'smsFloor', ...sms }),
			floorHttp: (): Task => ({ kind: 'smsFloor', ...sms, sendBatches: true }),
			fetch: (): Task => ({ kind: 'smsFetch', ...target(batchSize) }),
		},
		prepare,
		sends,
	);
	const node = wall(sides.node);
	const floor = wall(sides.floor);
	const floorHttp = wall(sides.floorHttp);
	const fetch = wall(sides.fetch);
	return row({
		name,
		description,
		unit: 'ms (wall)',
		measured: round(node),
		compared: [
			{ label: 'fetch', value: round(fetch), ratio: ratio(node, fetch) },
			{ label: 'floor + fetch', value: round(floor + fetch), ratio: ratio(node, floor + fetch) },
			{
				label: "floor sending the same batches through n8n's HTTP helper",
				value: round(floorHttp),
				ratio: ratio(node, floorHttp),
			},
		],
		// floor + fetch and fetch are information: a plain client keeps one connection alive, where
		// n8n's HTTP helper opens one per request for every node.
		checks: [
			check(FLOOR_HTTP_TARGET, node / floorHttp, 1.25, 'atMost'),
			requestsCheck(sides.node, Math.ceil(CAMPAIGN / batchSize), CAMPAIGN),
		],
		...bulkSendFigures(sides),
	});
}

/** A Bulk SMS Send row's figures beyond the measured time: each side's time, CPU, memory and requests. */
function bulkSendFigures(sides: Record<'node' | 'floor' | 'floorHttp' | 'fetch', Side>) {
	const node = wall(sides.node);
	const floor = wall(sides.floor);
	const floorHttp = wall(sides.floorHttp);
	const fetch = wall(sides.fetch);
	return {
		repetitions: sides.node.runs.length,
		floorMs: round(floor),
		fetchMs: round(fetch),
		medianMs: medianWall(sides.node),
		floorMedianMs: medianWall(sides.floor),
		floorWithN8nHttpMedianMs: medianWall(sides.floorHttp),
		fetchMedianMs: medianWall(sides.fetch),
		nodeOverFetch: ratio(node, fetch),
		nodeOverFloorPlusFetch: ratio(node, floor + fetch),
		// Beyond n8n's floor and a plain client's requests: n8n's HTTP helper and the node's own code.
		beyondFloorAndFetchMs: round(node - floor - fetch),
		// What sending the same batches through n8n's HTTP helper costs beyond the plain client.
		floorWithN8nHttpMs: round(floorHttp),
		// The node's own: its time beyond a floor that sends the same batches through n8n's helper.
		nodeOwnMs: round(node - floorHttp),
		// The same in CPU time of the measured process (steadier than wall time on a loaded machine).
		nodeOwnCpuMs: round(cpu(sides.node) - cpu(sides.floorHttp)),
		n8nHttpHelperBeyondFetchCpuMs: round(
			cpu(sides.floorHttp) - cpu(sides.floor) - cpu(sides.fetch),
		),
		requests: sides.node.requests[0],
		fetchRequests: sides.fetch.requests[0],
		floorRequests: sides.floor.requests[0],
		cpuMs: cpu(sides.node),
		floorCpuMs: cpu(sides.floor),
		floorWithN8nHttpCpuMs: cpu(sides.floorHttp),
		floorWithN8nHttpRequests: sides.floorHttp.requests[0],
		fetchCpuMs: cpu(sides.fetch),
		peakRssGrowthMB: peakMB(sides.node),
		floorPeakRssGrowthMB: peakMB(sides.floor),
		fetchPeakRssGrowthMB: peakMB(sides.fetch),
		runsMs: wallRuns(sides.node),
		floorRunsMs: wallRuns(sides.floor),
		floorWithN8nHttpRunsMs: wallRuns(sides.floorHttp),
		fetchRunsMs: wallRuns(sides.fetch),
	};
}

export async function bulkSend(sandbox: Sandbox, settings: Settings): Promise<Row[]> {
	const rows: Row[] = [];
	for (const batchSize of BATCH_SIZES) {
		for (const variant of ['expression', 'fixed', 'fields'] as const) {
			const result = await bulkSendRow(sandbox, settings, batchSize, variant);
			if (result) rows.push(result);
		}
	}
	return rows;
}

// ---- what users build instead -------------------------------------------------------------------

/**
 * The node against one of n8n's own ways: the alternative and the node (each way of giving To
 * that is measured) alternate. `speedUp` = the alternative's time over the node's.
 */
async function againstAlternative(
	sandbox: Sandbox,
	settings: Settings,
	options: {
		name: string;
		description: string;
		batchSize: number;
		alternative: Task;
		minimum: number;
		expectedRequests: number;
		reps: number;
	},
): Promise<Row> {
	const { prepare, sends, target } = smsSetup(sandbox);
	const variants: Variant[] = settings.fieldsParameters ? ['expression', 'fields'] : ['expression'];
	const sms = (variant: Variant): Task => ({
		kind: 'smsNode',
		...target(options.batchSize),
		variant,
		fieldsParameters: settings.fieldsParameters,
	});
	log(options.name);
	const tasks: Record<string, () => Task> = { alternative: () => options.alternative };
	for (const variant of variants) tasks[`node-${variant}`] = () => sms(variant);
	const sides: Record<string, Side> = await measureSides(
		options.name,
		options.reps,
		tasks,
		prepare,
		sends,
	);
	const alternative = wall(sides.alternative);
	const nodeSide = (variant: Variant) => sides[`node-${variant}`];
	// The target is the node's best way: from input fields once it exists, the expression today.
	const judged: Variant = settings.fieldsParameters ? 'fields' : 'expression';
	const judgedMs = wall(nodeSide(judged));
	const checks = alternativeChecks(options, sides.alternative, alternative / judgedMs, judged);
	const figures = variantFigures(variants, nodeSide, alternative);
	return row({
		name: options.name,
		description: options.description,
		unit: 'ms (wall)',
		measured: round(judgedMs),
		compared: [
			{ label: 'the alternative', value: round(alternative), ratio: ratio(judgedMs, alternative) },
		],
		checks,
		repetitions: sides.alternative.runs.length,
		alternativeMs: round(alternative),
		alternativeMedianMs: medianWall(sides.alternative),
		...figures,
		alternativeRequests: sides.alternative.requests[0],
		alternativeItemsOut: sides.alternative.runs[0].produced,
		alternativeCpuMs: cpu(sides.alternative),
		alternativePeakRssGrowthMB: peakMB(sides.alternative),
		alternativeRunsMs: wallRuns(sides.alternative),
	});
}

/** The node faster by the minimum (its best way of giving To), with as many requests as the alternative. */
function alternativeChecks(
	options: { minimum: number; expectedRequests: number },
	side: Side,
	speedUp: number,
	judged: Variant,
): Check[] {
	return [
		check(
			`the node ≥ ${options.minimum}× faster (${VARIANT_NAME[judged] ? 'recipients from input fields' : 'To as an expression'})`,
			speedUp,
			options.minimum,
			'atLeast',
		),
		check(
			`same number of requests as the node (${options.expectedRequests})`,
			side.requests.every((n) => n === options.expectedRequests)
				? options.expectedRequests
				: side.requests[0],
			options.expectedRequests,
			'equal',
		),
	];
}

/** Each measured way of giving To: the node's time, its speed-up over the alternative, its runs. */
function variantFigures(
	variants: Variant[],
	nodeSide: (variant: Variant) => Side,
	alternative: number,
): Record<string, unknown> {
	const figures: Record<string, unknown> = {};
	for (const variant of variants) {
		const side = nodeSide(variant);
		figures[`node${variant === 'expression' ? 'Expression' : 'Fields'}Ms`] = round(wall(side));
		figures[`speedUp${variant === 'expression' ? 'Expression' : 'Fields'}`] = round(
			alternative / wall(side),
			2,
		);
		figures[`node${variant === 'expression' ? 'Expression' : 'Fields'}MedianMs`] = medianWall(side);
		figures[`node${variant === 'expression' ? 'Expression' : 'Fields'}RunsMs`] = wallRuns(side);
	}
	return figures;
}

export async function alternatives(sandbox: Sandbox, settings: Settings): Promise<Row[]> {
	const rows: Row[] = [];
	const missing = nodeBaseMissing();
	const { target } = smsSetup(sandbox);
	for (const batchSize of BATCH_SIZES) {
		const name = `vs-code-and-http-request-batch-${batchSize}`;
		if (!settings.wanted(name)) continue;
		const description = `(b) the best a user builds by hand: a Code node groups the ${CAMPAIGN.toLocaleString('en')} items into batches of ${batchSize}, an HTTP Request node posts each batch; against the node with Batch Size ${batchSize}`;
		if (missing) {
			rows.push(
				skippedRow(name, description, 'ms (wall)', missing, [
					check('the node ≥ 2× faster', null, 2, 'atLeast'),
				]),
			);
			continue;
		}
		rows.push(
			await againstAlternative(sandbox, settings, {
				name,
				description,
				batchSize,
				alternative: { kind: 'smsCodeBatches', ...target(batchSize) },
				minimum: 2,
				expectedRequests: Math.ceil(CAMPAIGN / batchSize),
				reps: settings.reps(true),
			}),
		);
	}
	const perItem = 'vs-http-request-per-item';
	if (settings.wanted(perItem)) {
		const description = `(a) an HTTP Request node sending one request per item (${CAMPAIGN.toLocaleString('en')} requests, the pattern of n8n's Twilio node); against the node with Batch Size 100`;
		rows.push(
			missing
				? skippedRow(perItem, description, 'ms (wall)', missing, [
						check('the node ≥ 10× faster', null, 10, 'atLeast'),
					])
				: await againstAlternative(sandbox, settings, {
						name: perItem,
						description,
						batchSize: 100,
						alternative: { kind: 'smsHttpPerItem', ...target(1) },
						minimum: 10,
						expectedRequests: CAMPAIGN,
						reps: settings.reps(false),
					}),
		);
	}
	return rows;
}

/** The node itself one request per item (Batch Size 1) against Batch Size 100, and the same with a plain client. */
export async function perItemPattern(sandbox: Sandbox, settings: Settings): Promise<Row[]> {
	const name = 'per-item-vs-batched';
	if (!settings.wanted(name)) return [];
	log(name);
	const { prepare, sends, target } = smsSetup(sandbox);
	const sides = await measureSides(
		name,
		settings.reps(false),
		{
			batch1: (): Task => ({
				kind: 'smsNode',
				...target(1),
				variant: 'expression',
				breakdown: true,
			}),
			batch100: (): Task => ({
				kind: 'smsNode',
				...target(100),
				variant: 'expression',
				breakdown: true,
			}),
			fetch1: (): Task => ({ kind: 'smsFetch', ...target(1), breakdown: true }),
			fetch100: (): Task => ({ kind: 'smsFetch', ...target(100), breakdown: true }),
		},
		prepare,
		sends,
	);
	const one = wall(sides.batch1);
	const hundred = wall(sides.batch100);
	return [
		row({
			name,
			description: `The same ${CAMPAIGN.toLocaleString('en')} messages through the node one request per item (Batch Size 1), against Batch Size 100: the gain of batching`,
			unit: 'ms (wall)',
			measured: round(one),
			compared: [{ label: 'Batch Size 100', value: round(hundred), ratio: ratio(one, hundred) }],
			checks: [
				check('batching faster (Batch Size 1 / Batch Size 100 > 1)', one / hundred, 1, 'atLeast'),
				requestsCheck(sides.batch1, CAMPAIGN, CAMPAIGN),
			],
			...perItemFigures(sides),
		}),
	];
}

/** The per-item row's figures: requests, CPU, memory (and where its peak was), each side's runs. */
function perItemFigures(sides: Record<'batch1' | 'batch100' | 'fetch1' | 'fetch100', Side>) {
	return {
		repetitions: sides.batch1.runs.length,
		requests: sides.batch1.requests[0],
		batchedRequests: sides.batch100.requests[0],
		cpuMs: cpu(sides.batch1),
		batchedCpuMs: cpu(sides.batch100),
		peakRssGrowthMB: peakMB(sides.batch1),
		batchedPeakRssGrowthMB: peakMB(sides.batch100),
		medianMs: medianWall(sides.batch1),
		batchedMedianMs: medianWall(sides.batch100),
		plainFetchPerItemMs: round(wall(sides.fetch1)),
		plainFetchBatchedMs: round(wall(sides.fetch100)),
		plainFetchPerItemPeakRssGrowthMB: peakMB(sides.fetch1),
		// Where the peak was: V8's heap (objects, collected or not yet) and buffers outside it.
		peakHeapUsedGrowthMB: round(extraOf(sides.batch1, 'peakHeapUsedGrowthMB'), 1),
		peakArrayBuffersGrowthMB: round(extraOf(sides.batch1, 'peakArrayBuffersGrowthMB'), 1),
		plainFetchPerItemPeakHeapUsedGrowthMB: round(extraOf(sides.fetch1, 'peakHeapUsedGrowthMB'), 1),
		plainFetchPerItemPeakArrayBuffersGrowthMB: round(
			extraOf(sides.fetch1, 'peakArrayBuffersGrowthMB'),
			1,
		),
		runsMs: wallRuns(sides.batch1),
		batchedRunsMs: wallRuns(sides.batch100),
	};
}

// ---- call-record export -------------------------------------------------------------------------

const SEEDED_CDRS = 100_000;
const EXPORT_ROWS = 10_000;

export async function cdrExport(sandbox: Sandbox, settings: Settings): Promise<Row[]> {
	const name = 'cdr-export-10000';
	if (!settings.wanted(name)) return [];
	log(name);
	const started = performance.now();
	sandbox.control.reset({ cdrs: SEEDED_CDRS });
	log(
		`  seeded ${SEEDED_CDRS.toLocaleString('en')} call records in ${round(performance.now() - started)} ms`,
	);
	// November 2024: about a third of the seeded quarter, so LIMIT 10000 is what bounds the rows.
	const range = { from: '2024-11-01 00:00:00', until: '2024-11-30 23:59:59' };
	const nodeTask = (): Task => ({
		kind: 'cdrNode',
		vnUrl: sandbox.vnUrl,
		token: sandbox.tokens.vn,
		limit: EXPORT_ROWS,
		...range,
	});
	const sql = await statementOf(sandbox, nodeTask);
	log(`  statement: ${sql}`);
	const sides = await measureSides(
		name,
		settings.reps(true),
		{
			node: nodeTask,
			fetch: (): Task => ({
				kind: 'cdrFetch',
				vnUrl: sandbox.vnUrl,
				token: sandbox.tokens.vn,
				sql,
			}),
		},
		() => sandbox.control.clearRequests(),
		() => measuredStatements(sandbox),
	);
	const node = wall(sides.node);
	const fetch = wall(sides.fetch);
	return [
		row({
			name,
			description: `Call Record → Query (builder, all columns, Limit ${EXPORT_ROWS.toLocaleString('en')}) over ${SEEDED_CDRS.toLocaleString('en')} seeded records, against fetch + JSON.parse of the same statement`,
			unit: 'ms (wall)',
			measured: round(node),
			compared: [{ label: 'fetch', value: round(fetch), ratio: ratio(node, fetch) }],
			checks: [
				check('≤ 1.5× fetch', node / fetch, 1.5, 'atMost'),
				check(
					`${EXPORT_ROWS.toLocaleString('en')} rows`,
					producedBy(sides.node, EXPORT_ROWS),
					EXPORT_ROWS,
					'equal',
				),
			],
			...exportFigures(sides),
			sql,
		}),
	];
}

/** The statement the node writes (sent as it is by the baseline): one run of the node, read off the sandbox. */
async function statementOf(sandbox: Sandbox, nodeTask: () => Task): Promise<string> {
	sandbox.control.clearRequests();
	const { child } = await import('./sides.mts');
	await child(nodeTask());
	return String(
		(sandbox.control.requests({ operation: 'cdr_query' }).at(-1)?.body as Record<string, string>)
			.sql,
	);
}

/** The measured run's statements (the warm-ups ask for 200 rows). */
function measuredStatements(sandbox: Sandbox): number {
	return sandbox.control
		.requests({ operation: 'cdr_query' })
		.filter((request) =>
			String((request.body as Record<string, string>).sql).endsWith(`LIMIT ${EXPORT_ROWS}`),
		).length;
}

/** `expected` when every run produced it, else what the first run produced. */
function producedBy(side: Side, expected: number): number {
	return side.runs.every((m) => m.produced === expected) ? expected : side.runs[0].produced;
}

function exportFigures(sides: Record<'node' | 'fetch', Side>) {
	return {
		repetitions: sides.node.runs.length,
		requests: sides.node.requests[0],
		medianMs: medianWall(sides.node),
		fetchMedianMs: medianWall(sides.fetch),
		cpuMs: cpu(sides.node),
		fetchCpuMs: cpu(sides.fetch),
		peakRssGrowthMB: peakMB(sides.node),
		fetchPeakRssGrowthMB: peakMB(sides.fetch),
		runsMs: wallRuns(sides.node),
		fetchRunsMs: wallRuns(sides.fetch),
	};
}

// ---- recording download -------------------------------------------------------------------------

const RECORDING_BYTES = 50 * 1024 * 1024;

/** The difference of two medians of peak memory beside the spread of each side's runs (is it more than noise?). */
function spread(node: Side, other: Side): string {
	const range = (side: Side) => `${Math.min(...peakRuns(side))}–${Math.max(...peakRuns(side))} MB`;
	const difference = round(
		Math.abs(medianOf(node, (m) => m.peakRssGrowth) - medianOf(other, (m) => m.peakRssGrowth)) /
			(1024 * 1024),
		1,
	);
	return `medians ${difference} MB apart; runs ${range(node)} (node), ${range(other)} (other)`;
}

const RECORDING_MODES = [
	{ name: 'recording-50MB-default-mode', binaryMode: 'default', into: 'memory' },
	{ name: 'recording-50MB-filesystem-mode', binaryMode: 'filesystem', into: 'file' },
] as const;
type RecordingMode = (typeof RECORDING_MODES)[number];
type RecordingSides = { node: Side; httpRequest?: Side; fetch: Side };

export async function recording(sandbox: Sandbox, settings: Settings): Promise<Row[]> {
	const rows: Row[] = [];
	if (!RECORDING_MODES.some((mode) => settings.wanted(mode.name))) return [];
	sandbox.control.reset({ recordingBytes: RECORDING_BYTES });
	const callUuid = sandbox.control.cdrs({ hasRecording: true })[0].cdr_uniqueid;
	const missing = nodeBaseMissing();
	const common = { vnUrl: sandbox.vnUrl, token: sandbox.tokens.vn, callUuid };
	for (const mode of RECORDING_MODES) {
		if (!settings.wanted(mode.name)) continue;
		log(mode.name);
		const sides = await measureSides(
			mode.name,
			settings.reps(true),
			{
				node: (): Task => ({ kind: 'recordingNode', ...common, binaryMode: mode.binaryMode }),
				...(missing
					? {}
					: {
							httpRequest: (): Task => ({
								kind: 'recordingHttpNode',
								...common,
								binaryMode: mode.binaryMode,
							}),
						}),
				fetch: (): Task => ({ kind: 'recordingFetch', ...common, into: mode.into }),
			} as Record<'node' | 'httpRequest' | 'fetch', () => Task>,
			() => sandbox.control.clearRequests(),
			() => sandbox.control.requests({ operation: 'get_record_by_call_uuid' }).length,
		);
		rows.push(recordingRow(mode, sides, missing));
	}
	return rows;
}

/** One binary mode's row: the node's peak memory against n8n's HTTP Request node and a plain fetch. */
function recordingRow(
	mode: RecordingMode,
	sides: RecordingSides,
	missing: string | undefined,
): Row {
	const size = sides.node.runs[0].produced;
	const growth = medianOf(sides.node, (m) => m.peakRssGrowth);
	const http = sides.httpRequest;
	const httpGrowth = http ? medianOf(http, (m) => m.peakRssGrowth) : undefined;
	const fetchGrowth = medianOf(sides.fetch, (m) => m.peakRssGrowth);
	return row({
		name: mode.name,
		description: `Call Record → Download Recording of a ${toMB(size)} MB WAV, n8n binary data mode "${mode.binaryMode}", against n8n's HTTP Request node downloading the same file as a file in the same mode, and a plain fetch (${mode.into === 'memory' ? 'into memory' : 'streamed to a file'})`,
		unit: 'MB (peak RSS growth)',
		measured: toMB(growth),
		compared: [
			...(httpGrowth === undefined
				? []
				: [
						{
							label: "n8n's HTTP Request node",
							value: toMB(httpGrowth),
							ratio: ratio(growth, httpGrowth),
						},
					]),
			{
				label: mode.into === 'memory' ? 'fetch into memory' : 'fetch piped to a file',
				value: toMB(fetchGrowth),
				ratio: ratio(growth, fetchGrowth),
			},
			{ label: 'the file size', value: toMB(size), ratio: ratio(growth, size) },
		],
		checks: recordingChecks(mode, sides, missing, { growth, httpGrowth, fetchGrowth, size }),
		repetitions: sides.node.runs.length,
		fileBytes: size,
		...recordingFigures(sides, missing),
	});
}

/** Peak no higher than n8n's HTTP Request node (and, to a file, than a plain fetch); the whole file. */
function recordingChecks(
	mode: RecordingMode,
	sides: RecordingSides,
	missing: string | undefined,
	peaks: { growth: number; httpGrowth?: number; fetchGrowth: number; size: number },
): Check[] {
	const { growth, httpGrowth, fetchGrowth, size } = peaks;
	const http = sides.httpRequest;
	const checks: Check[] = [
		check(
			`peak ≤ 1.0× n8n's HTTP Request node (${mode.binaryMode} mode)`,
			httpGrowth === undefined ? null : growth / httpGrowth,
			1,
			'atMost',
			http ? spread(sides.node, http) : missing,
		),
	];
	if (mode.binaryMode === 'filesystem')
		checks.push(
			check(
				'peak ≤ 1.0× a plain fetch piped to a file',
				growth / fetchGrowth,
				1,
				'atMost',
				spread(sides.node, sides.fetch),
			),
		);
	checks.push(check('the whole file', producedBy(sides.node, size), RECORDING_BYTES, 'equal'));
	return checks;
}

/** Each side's wall time, runs, where the file was stored and where the peak was. */
function recordingFigures(sides: RecordingSides, missing: string | undefined) {
	const http = sides.httpRequest;
	const breakdown = (side: Side, prefix: string) => ({
		[`${prefix}PeakArrayBuffersGrowthMB`]: round(extraOf(side, 'peakArrayBuffersGrowthMB'), 1),
		[`${prefix}PeakHeapUsedGrowthMB`]: round(extraOf(side, 'peakHeapUsedGrowthMB'), 1),
	});
	return {
		storedIn: String(sides.node.runs[0].extra?.stored ?? ''),
		wallMs: round(wall(sides.node)),
		runsMB: peakRuns(sides.node),
		...breakdown(sides.node, 'node'),
		...(http
			? {
					httpRequestWallMs: round(wall(http)),
					httpRequestRunsMB: peakRuns(http),
					httpRequestStoredIn: String(http.runs[0].extra?.stored ?? ''),
					...breakdown(http, 'httpRequest'),
				}
			: { httpRequest: missing }),
		fetchWallMs: round(wall(sides.fetch)),
		fetchRunsMB: peakRuns(sides.fetch),
		...breakdown(sides.fetch, 'fetch'),
	};
}

// ---- trigger ------------------------------------------------------------------------------------

const CALLBACKS = 20_000;
const FULL_PATH_CALLBACKS = 5_000;
/** Requests in flight in the full-path rows (a call centre's callbacks overlap). */
const CONCURRENCY = 4;

export async function triggerFunction(settings: Settings): Promise<Row[]> {
	const name = 'trigger-webhook-function';
	if (!settings.wanted(name)) return [];
	log(name);
	const sides = await measureSides(name, settings.reps(true), {
		node: (): Task => ({ kind: 'trigger', callbacks: CALLBACKS, webhook: 'node' }),
		passthrough: (): Task => ({ kind: 'trigger', callbacks: CALLBACKS, webhook: 'passthrough' }),
	});
	const rate = bestOf(sides.node, 'perSecond');
	const baseRate = bestOf(sides.passthrough, 'perSecond');
	const p99 = extraOf(sides.node, 'p99Ms');
	return [
		row({
			name,
			description: `${CALLBACKS.toLocaleString('en')} callbacks (call start/end as JSON, form and query string; SMS delivery) straight into the trigger's webhook function (secret check, parse, normalize) through n8n-core's WebhookContext, no HTTP, no execution; against a webhook function that passes the request on unparsed`,
			unit: 'callbacks/s',
			measured: round(rate),
			compared: [
				{
					label: 'pass-through webhook function',
					value: round(baseRate),
					ratio: ratio(baseRate, rate),
				},
			],
			checks: [
				check(
					"≥ 1,000 callbacks/s (this package's target: the spec gives none)",
					rate,
					1000,
					'atLeast',
				),
				check("p99 ≤ 10 ms (this package's target)", p99, 10, 'atMost'),
			],
			repetitions: sides.node.runs.length,
			p50Ms: round(extraOf(sides.node, 'p50Ms'), 3),
			p95Ms: round(extraOf(sides.node, 'p95Ms'), 3),
			p99Ms: round(p99, 3),
			passthroughP99Ms: round(extraOf(sides.passthrough, 'p99Ms'), 3),
			cpuMs: cpu(sides.node),
			passthroughCpuMs: cpu(sides.passthrough),
			peakRssGrowthMB: peakMB(sides.node),
		}),
	];
}

export async function triggerFullPath(settings: Settings): Promise<Row[]> {
	const name = 'trigger-full-webhook-path';
	if (!settings.wanted(name)) return [];
	const description = `${FULL_PATH_CALLBACKS.toLocaleString('en')} callbacks (the same mix) over HTTP, ${CONCURRENCY} in flight, from another process, through the whole webhook path: the harness's HTTP server (bodies parsed as n8n's webhook server does), WebhookContext, the answer, and one execution started and run per callback; against n8n's Webhook node (GET and POST, answer at once) on the same server and the same requests`;
	const missing = nodeBaseMissing();
	const targets = [check("≥ 0.8× the Webhook node's callbacks/s", null, 0.8, 'atLeast')];
	log(name);
	const receiver = (to: 'trigger' | 'webhookNode') => (): Task => ({
		kind: 'webhookPath',
		callbacks: FULL_PATH_CALLBACKS,
		concurrency: CONCURRENCY,
		receiver: to,
	});
	const sides = await measureSides(name, settings.reps(false), {
		trigger: receiver('trigger'),
		...(missing ? {} : { webhookNode: receiver('webhookNode') }),
	} as Record<'trigger' | 'webhookNode', () => Task>);
	const rate = bestOf(sides.trigger, 'perSecond');
	const p99 = extraOf(sides.trigger, 'p99Ms');
	const webhook = sides.webhookNode as Side | undefined;
	const webhookRate = webhook ? bestOf(webhook, 'perSecond') : undefined;
	return [
		row({
			name,
			description,
			unit: 'callbacks/s',
			measured: round(rate),
			compared:
				webhookRate === undefined
					? []
					: [
							{
								label: "n8n's Webhook node",
								value: round(webhookRate),
								ratio: ratio(webhookRate, rate),
							},
						],
			checks:
				webhookRate === undefined
					? targets.map((c) => ({ ...c, note: missing }))
					: [check("≥ 0.8× the Webhook node's callbacks/s", rate / webhookRate, 0.8, 'atLeast')],
			repetitions: sides.trigger.runs.length,
			p50Ms: round(extraOf(sides.trigger, 'p50Ms'), 3),
			p95Ms: round(extraOf(sides.trigger, 'p95Ms'), 3),
			p99Ms: round(p99, 3),
			cpuMs: cpu(sides.trigger),
			cpuMsPerCallback: round(medianOf(sides.trigger, (m) => m.cpuMs) / FULL_PATH_CALLBACKS, 3),
			peakRssGrowthMB: peakMB(sides.trigger),
			perSecondRuns: sides.trigger.runs.map((m) => Number(m.extra?.perSecond)),
			...webhookNodeFigures(webhook, p99, missing),
		}),
	];
}

/** n8n's Webhook node's latencies and CPU beside the trigger's (or why it was not measured). */
function webhookNodeFigures(webhook: Side | undefined, p99: number, missing: string | undefined) {
	if (!webhook) return { webhookNode: missing };
	return {
		webhookNodeP50Ms: round(extraOf(webhook, 'p50Ms'), 3),
		webhookNodeP99Ms: round(extraOf(webhook, 'p99Ms'), 3),
		p99OverWebhookNode: ratio(p99, extraOf(webhook, 'p99Ms')),
		webhookNodeCpuMsPerCallback: round(medianOf(webhook, (m) => m.cpuMs) / FULL_PATH_CALLBACKS, 3),
		webhookNodePerSecondRuns: webhook.runs.map((m) => Number(m.extra?.perSecond)),
	};
}
