/**
 * The harness benchmarks: for each, the tasks of its sides (run alternately in fresh processes,
 * measure.mts) and the rows made of them (report.mts). What each row is and its targets:
 * dev/docs/benchmarks.md.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../sandbox/index.mts';
import {
	baseNodesStatus,
	bestOf,
	child,
	cpu,
	extraOf,
	log,
	measureSides,
	medianOf,
	peakMB,
	peakRuns,
	producedBy,
	round,
	sideFigures,
	toMB,
	wall,
	type Side,
	type Task,
} from './measure.mts';
import { check, ratio, row, skippedRow, type Check, type Row } from './report.mts';
import type { Variant } from './send.mts';

export interface Settings {
	wanted(name: string): boolean;
	reps(cheap: boolean): number;
	/** The node parameters of the "recipients from input fields" rows. */
	fieldsParameters?: IDataObject;
}

export const CAMPAIGN = 10_000;
/** Digits that start the numbers of the children's warm-up sends (campaign offset 5,000,000: +972 50-6xxxxxx). */
const WARM_UP_DEST = '972506';
const BATCH_SIZES = [100, 1000];
const number = (n: number) => n.toLocaleString('en');

/** Why n8n's own nodes cannot be compared with, when they cannot. */
function nodeBaseMissing(): string | undefined {
	const status = baseNodesStatus();
	if (!status.available) return `n8n's own nodes are not available: ${status.reason}`;
}

// ---- Send ----------------------------------------------------------------------------------------

function smsSetup(sandbox: Sandbox) {
	const prepare = () => {
		sandbox.control.reset();
		sandbox.control.setCredit(1_000_000_000);
	};
	// The batches of the measured run; the child's warm-up sends to other numbers (WARM_UP_DEST).
	const firstDest = (body: unknown) => String((body as Array<{ dest?: string }>)[0]?.dest ?? '');
	const sends = () =>
		sandbox.control
			.requests({ service: 'sms', operation: 'send_sms' })
			.filter((request) => !firstDest(request.body).startsWith(WARM_UP_DEST)).length;
	const { smsUrl, tokens } = sandbox;
	const target = (batchSize: number) => ({ smsUrl, token: tokens.sms, items: CAMPAIGN, batchSize });
	return { prepare, sends, target };
}

const FLOOR_HTTP_TARGET = "≤ 1.25× the floor sending the same batches through n8n's HTTP helper";
/** A row's name ends with the way To is given (none for the expression). */
const VARIANT_NAME = { expression: '', fixed: '-fixed-to', fields: '-fields' } as const;
const VARIANT_WORDS: Record<Variant, string> = {
	expression: "To = {{ $json.phone }} (each item's own number, an n8n expression per item)",
	fixed:
		'To a fixed text (one value for all items: no n8n expression per item), Batches in Flight 4',
	fields:
		"recipients from input fields (the number read from each item's `phone` field by the node, no expression), Batches in Flight 4",
};

const requestsCheck = (side: Side, expected: number, produced: number) =>
	check(
		`requests = ${expected}, ${number(produced)} messages sent`,
		side.requests.every((n) => n === expected) && side.runs.every((m) => m.produced === produced)
			? expected
			: side.requests[0],
		expected,
		'equal',
	);

/** Node, floor (with and without sending through n8n's helper) and fetch, for one batch size and one way of giving To. */
async function bulkSendRow(
	sandbox: Sandbox,
	settings: Settings,
	batchSize: number,
	variant: Variant,
): Promise<Row | undefined> {
	const name = `bulk-send-batch-${batchSize}${VARIANT_NAME[variant]}`;
	if (!settings.wanted(name)) return undefined;
	const description = `${number(CAMPAIGN)} items → Bulk SMS Send, Batch Size ${batchSize}, ${VARIANT_WORDS[variant]}`;
	if (variant === 'fields' && !settings.fieldsParameters)
		return skippedRow(name, description, 'ms (wall)', 'no Send parameters for the fields rows', [
			check(FLOOR_HTTP_TARGET, null, 1.25, 'atMost'),
		]);
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
	return bulkSendResult(name, description, batchSize, sides);
}

/** A Send row: the node against fetch, floor + fetch, and the floor sending through n8n's helper. */
function bulkSendResult(
	name: string,
	description: string,
	batchSize: number,
	sides: Record<'node' | 'floor' | 'floorHttp' | 'fetch', Side>,
): Row {
	const [node, floor, floorHttp, fetch] = [
		sides.node,
		sides.floor,
		sides.floorHttp,
		sides.fetch,
	].map(wall);
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
		repetitions: sides.node.runs.length,
		// CPU of the measured process, steadier than wall time on a loaded machine: the node's own
		// beyond a floor sending the same batches, and n8n's HTTP helper beyond a plain client.
		nodeOwnCpuMs: round(cpu(sides.node) - cpu(sides.floorHttp)),
		n8nHttpHelperBeyondFetchCpuMs: round(
			cpu(sides.floorHttp) - cpu(sides.floor) - cpu(sides.fetch),
		),
		sides: sideFigures(sides),
	});
}

export async function bulkSend(sandbox: Sandbox, settings: Settings): Promise<Row[]> {
	const rows: Array<Row | undefined> = [];
	for (const batchSize of BATCH_SIZES)
		for (const variant of ['expression', 'fixed', 'fields'] as const)
			rows.push(await bulkSendRow(sandbox, settings, batchSize, variant));
	return rows.filter((r): r is Row => r !== undefined);
}

/** One of n8n's own ways against the node: what it is, its task, the speed-up the node must reach. */
type Alternative = Record<'name' | 'description', string> & { alternative: Task } & Record<
		'batchSize' | 'minimum' | 'expectedRequests' | 'reps',
		number
	>;

/**
 * The node against one of n8n's own ways, alternating; judged on the node's best way of giving To
 * (recipients from input fields; To as an expression beside it).
 */
async function againstAlternative(
	sandbox: Sandbox,
	settings: Settings,
	options: Alternative,
): Promise<Row> {
	const { prepare, sends, target } = smsSetup(sandbox);
	const variants: Variant[] = settings.fieldsParameters ? ['expression', 'fields'] : ['expression'];
	log(options.name);
	const tasks: Record<string, () => Task> = { alternative: () => options.alternative };
	for (const variant of variants)
		tasks[`node-${variant}`] = () => ({
			kind: 'smsNode',
			...target(options.batchSize),
			variant,
			fieldsParameters: settings.fieldsParameters,
		});
	const sides = await measureSides(options.name, options.reps, tasks, prepare, sends);
	const alternative = wall(sides.alternative);
	const judged = variants.at(-1)!;
	const judgedMs = wall(sides[`node-${judged}`]);
	const way = judged === 'fields' ? 'recipients from input fields' : 'To as an expression';
	const requests = sides.alternative.requests;
	const expected = options.expectedRequests;
	const checks: Check[] = [
		check(
			`the node ≥ ${options.minimum}× faster (${way})`,
			alternative / judgedMs,
			options.minimum,
			'atLeast',
		),
		check(
			`same number of requests as the node (${expected})`,
			requests.every((n) => n === expected) ? expected : requests[0],
			expected,
			'equal',
		),
	];
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
		alternativeItemsOut: sides.alternative.runs[0].produced,
		sides: sideFigures(sides),
	});
}

export async function alternatives(sandbox: Sandbox, settings: Settings): Promise<Row[]> {
	const rows: Row[] = [];
	const missing = nodeBaseMissing();
	const { target } = smsSetup(sandbox);
	const add = async (options: Omit<Alternative, 'reps'>, cheap: boolean) => {
		if (!settings.wanted(options.name)) return;
		const minimum = check(
			`the node ≥ ${options.minimum}× faster`,
			null,
			options.minimum,
			'atLeast',
		);
		rows.push(
			missing
				? skippedRow(options.name, options.description, 'ms (wall)', missing, [minimum])
				: await againstAlternative(sandbox, settings, { ...options, reps: settings.reps(cheap) }),
		);
	};
	for (const batchSize of BATCH_SIZES)
		await add(
			{
				name: `vs-code-and-http-request-batch-${batchSize}`,
				description: `(b) the best a user builds by hand: a Code node groups the ${number(CAMPAIGN)} items into batches of ${batchSize}, an HTTP Request node posts each batch; against the node with Batch Size ${batchSize}`,
				batchSize,
				alternative: { kind: 'smsCodeBatches', ...target(batchSize) },
				minimum: 2,
				expectedRequests: Math.ceil(CAMPAIGN / batchSize),
			},
			true,
		);
	await add(
		{
			name: 'vs-http-request-per-item',
			description: `(a) an HTTP Request node sending one request per item (${number(CAMPAIGN)} requests, the pattern of n8n's Twilio node); against the node with Batch Size 100`,
			batchSize: 100,
			alternative: { kind: 'smsHttpPerItem', ...target(1) },
			minimum: 10,
			expectedRequests: CAMPAIGN,
		},
		false,
	);
	return rows;
}

/** The node itself one request per item (Batch Size 1) against Batch Size 100, and the same with a plain client. */
export async function perItemPattern(sandbox: Sandbox, settings: Settings): Promise<Row[]> {
	const name = 'per-item-vs-batched';
	if (!settings.wanted(name)) return [];
	log(name);
	const { prepare, sends, target } = smsSetup(sandbox);
	const node = (size: number): Task => ({
		kind: 'smsNode',
		...target(size),
		variant: 'expression',
		breakdown: true,
	});
	const fetch = (size: number): Task => ({ kind: 'smsFetch', ...target(size), breakdown: true });
	const sides = await measureSides(
		name,
		settings.reps(false),
		{
			batch1: () => node(1),
			batch100: () => node(100),
			fetch1: () => fetch(1),
			fetch100: () => fetch(100),
		},
		prepare,
		sends,
	);
	const [one, hundred] = [wall(sides.batch1), wall(sides.batch100)];
	return [
		row({
			name,
			description: `The same ${number(CAMPAIGN)} messages through the node one request per item (Batch Size 1), against Batch Size 100: the gain of batching`,
			unit: 'ms (wall)',
			measured: round(one),
			compared: [{ label: 'Batch Size 100', value: round(hundred), ratio: ratio(one, hundred) }],
			checks: [
				check('batching faster (Batch Size 1 / Batch Size 100 > 1)', one / hundred, 1, 'atLeast'),
				requestsCheck(sides.batch1, CAMPAIGN, CAMPAIGN),
			],
			repetitions: sides.batch1.runs.length,
			sides: sideFigures(sides),
		}),
	];
}

// ---- call-record export --------------------------------------------------------------------------

const SEEDED_CDRS = 100_000;
const EXPORT_ROWS = 10_000;

export async function cdrExport(sandbox: Sandbox, settings: Settings): Promise<Row[]> {
	const name = 'cdr-export-10000';
	if (!settings.wanted(name)) return [];
	log(name);
	sandbox.control.reset({ cdrs: SEEDED_CDRS });
	// November 2024: about a third of the seeded quarter, so LIMIT 10000 is what bounds the rows.
	const common = { vnUrl: sandbox.vnUrl, token: sandbox.tokens.vn };
	const nodeTask = (): Task => ({
		kind: 'cdrNode',
		...common,
		limit: EXPORT_ROWS,
		from: '2024-11-01 00:00:00',
		until: '2024-11-30 23:59:59',
	});
	// The statement the node writes, sent as it is by the baseline: one run of the node, read off the sandbox.
	sandbox.control.clearRequests();
	await child(nodeTask());
	const statements = () => sandbox.control.requests({ operation: 'cdr_query' });
	const sql = String((statements().at(-1)?.body as Record<string, string>).sql);
	log(`  statement: ${sql}`);
	const sides = await measureSides(
		name,
		settings.reps(true),
		{ node: nodeTask, fetch: (): Task => ({ kind: 'cdrFetch', ...common, sql }) },
		() => sandbox.control.clearRequests(),
		// The measured run's statements (the warm-ups ask for 200 rows).
		() =>
			statements().filter((r) =>
				String((r.body as Record<string, string>).sql).endsWith(`LIMIT ${EXPORT_ROWS}`),
			).length,
	);
	const [node, fetch] = [wall(sides.node), wall(sides.fetch)];
	return [
		row({
			name,
			description: `Call Record → Query (builder, all columns, Limit ${number(EXPORT_ROWS)}) over ${number(SEEDED_CDRS)} seeded records, against fetch + JSON.parse of the same statement`,
			unit: 'ms (wall)',
			measured: round(node),
			compared: [{ label: 'fetch', value: round(fetch), ratio: ratio(node, fetch) }],
			checks: [
				check('≤ 1.5× fetch', node / fetch, 1.5, 'atMost'),
				check(
					`${number(EXPORT_ROWS)} rows`,
					producedBy(sides.node, EXPORT_ROWS),
					EXPORT_ROWS,
					'equal',
				),
			],
			repetitions: sides.node.runs.length,
			sql,
			sides: sideFigures(sides),
		}),
	];
}

// ---- recording download --------------------------------------------------------------------------

const RECORDING_BYTES = 50 * 1024 * 1024;
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
		const tasks: Record<string, () => Task> = {
			node: () => ({ kind: 'recordingNode', ...common, binaryMode: mode.binaryMode }),
			fetch: () => ({ kind: 'recordingFetch', ...common, into: mode.into }),
		};
		if (!missing)
			tasks.httpRequest = () => ({
				kind: 'recordingHttpNode',
				...common,
				binaryMode: mode.binaryMode,
			});
		const sides = (await measureSides(
			mode.name,
			settings.reps(true),
			tasks,
			() => sandbox.control.clearRequests(),
			() => sandbox.control.requests({ operation: 'get_record_by_call_uuid' }).length,
		)) as RecordingSides;
		rows.push(recordingRow(mode, sides, missing));
	}
	return rows;
}

/** The difference of two medians of peak memory beside the spread of each side's runs (is it more than noise?). */
function spread(node: Side, other: Side): string {
	const range = (side: Side) => `${Math.min(...peakRuns(side))}–${Math.max(...peakRuns(side))} MB`;
	const difference = Math.abs(peakMB(node) - peakMB(other));
	return `medians ${round(difference, 1)} MB apart; runs ${range(node)} (node), ${range(other)} (other)`;
}

/** One binary mode's row: the node's peak memory against n8n's HTTP Request node and a plain fetch. */
function recordingRow(mode: RecordingMode, sides: RecordingSides, missing?: string): Row {
	const size = sides.node.runs[0].produced;
	const growth = medianOf(sides.node, (m) => m.peakRssGrowth);
	const http = sides.httpRequest;
	const httpGrowth = http ? medianOf(http, (m) => m.peakRssGrowth) : undefined;
	const fetchGrowth = medianOf(sides.fetch, (m) => m.peakRssGrowth);
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
	const httpCompared =
		httpGrowth === undefined
			? []
			: [
					{
						label: "n8n's HTTP Request node",
						value: toMB(httpGrowth),
						ratio: ratio(growth, httpGrowth),
					},
				];
	return row({
		name: mode.name,
		description: `Call Record → Download Recording of a ${toMB(size)} MB WAV, n8n binary data mode "${mode.binaryMode}", against n8n's HTTP Request node downloading the same file as a file in the same mode, and a plain fetch (${mode.into === 'memory' ? 'into memory' : 'streamed to a file'})`,
		unit: 'MB (peak RSS growth)',
		measured: toMB(growth),
		compared: [
			...httpCompared,
			{
				label: mode.into === 'memory' ? 'fetch into memory' : 'fetch piped to a file',
				value: toMB(fetchGrowth),
				ratio: ratio(growth, fetchGrowth),
			},
			{ label: 'the file size', value: toMB(size), ratio: ratio(growth, size) },
		],
		checks,
		repetitions: sides.node.runs.length,
		storedIn: String(sides.node.runs[0].extra?.stored ?? ''),
		runsMB: peakRuns(sides.node),
		...(http ? {} : { httpRequest: missing }),
		sides: sideFigures(sides),
	});
}

// ---- the trigger ---------------------------------------------------------------------------------

const CALLBACKS = 20_000;
const FULL_PATH_CALLBACKS = 5_000;
/** Requests in flight in the full-path row (a call centre's callbacks overlap). */
const CONCURRENCY = 4;

/** The latency percentiles of a side's runs (medians). */
const latencies = (side: Side) =>
	Object.fromEntries(['p50Ms', 'p95Ms', 'p99Ms'].map((key) => [key, round(extraOf(side, key), 3)]));

export async function triggerFunction(settings: Settings): Promise<Row[]> {
	const name = 'trigger-webhook-function';
	if (!settings.wanted(name)) return [];
	log(name);
	const sides = await measureSides(name, settings.reps(true), {
		node: (): Task => ({ kind: 'trigger', callbacks: CALLBACKS, webhook: 'node' }),
		passthrough: (): Task => ({ kind: 'trigger', callbacks: CALLBACKS, webhook: 'passthrough' }),
	});
	const [rate, baseRate] = [
		bestOf(sides.node, 'perSecond'),
		bestOf(sides.passthrough, 'perSecond'),
	];
	const p99 = extraOf(sides.node, 'p99Ms');
	return [
		row({
			name,
			description: `${number(CALLBACKS)} callbacks (call start/end as JSON, form and query string; SMS delivery) straight into the trigger's webhook function (secret check, parse, normalize) through n8n-core's WebhookContext, no HTTP, no execution; against a webhook function that passes the request on unparsed`,
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
			...latencies(sides.node),
			passthrough: latencies(sides.passthrough),
			sides: sideFigures(sides),
		}),
	];
}

export async function triggerFullPath(settings: Settings): Promise<Row[]> {
	const name = 'trigger-full-webhook-path';
	if (!settings.wanted(name)) return [];
	const target = "≥ 0.8× the Webhook node's callbacks/s";
	const missing = nodeBaseMissing();
	log(name);
	const receiver = (to: 'trigger' | 'webhookNode') => (): Task => ({
		kind: 'webhookPath',
		callbacks: FULL_PATH_CALLBACKS,
		concurrency: CONCURRENCY,
		receiver: to,
	});
	const tasks: Record<string, () => Task> = { trigger: receiver('trigger') };
	if (!missing) tasks.webhookNode = receiver('webhookNode');
	const sides = await measureSides(name, settings.reps(false), tasks);
	const rate = bestOf(sides.trigger, 'perSecond');
	const webhook = sides.webhookNode as Side | undefined;
	const webhookRate = webhook ? bestOf(webhook, 'perSecond') : undefined;
	return [
		row({
			name,
			description: `${number(FULL_PATH_CALLBACKS)} callbacks (the same mix) over HTTP, ${CONCURRENCY} in flight, from another process, through the whole webhook path: the harness's HTTP server (bodies parsed as n8n's webhook server does), WebhookContext, the answer, and one execution started and run per callback; against n8n's Webhook node (GET and POST, answer at once) on the same server and the same requests`,
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
			checks: [
				webhookRate === undefined
					? check(target, null, 0.8, 'atLeast', missing)
					: check(target, rate / webhookRate, 0.8, 'atLeast'),
			],
			repetitions: sides.trigger.runs.length,
			...latencies(sides.trigger),
			cpuMsPerCallback: round(medianOf(sides.trigger, (m) => m.cpuMs) / FULL_PATH_CALLBACKS, 3),
			...(webhook
				? {
						webhookNode: latencies(webhook),
						webhookNodeCpuMsPerCallback: round(
							medianOf(webhook, (m) => m.cpuMs) / FULL_PATH_CALLBACKS,
							3,
						),
					}
				: { webhookNode: missing }),
			sides: sideFigures(sides),
		}),
	];
}
