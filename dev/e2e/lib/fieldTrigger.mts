/**
 * The trigger's events in a real n8n, with n8n's Data Table: the SMS opt-out example fills a
 * do-not-send list from received SMS, the campaign example skips those numbers, the VIP example
 * routes a call by the trigger's routing rules (opening hours included) and logs it in a Data
 * Table, and, last, the Data Table example routes it by a lookup and a Route Incoming Call node.
 * Between the two, with the sandbox's field profile switched
 * on at run time: an activation and a deactivation that keep every setting of the number while
 * update_virtualnum replaces the whole record, a GET call-end callback with `?event=hangup`
 * appended and a Secret set reaching n8n as Call Ended, an inbound SMS reaching n8n as
 * sms.received, and a routed call whose destination the sandbox recorded.
 */
import { randomUUID } from 'node:crypto';

import { DateTime } from 'luxon';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { executionsOf, finished, type StoredDetail } from '../../harness/n8n/executions.mts';
import { readExample } from '../../harness/n8n/install.mts';
import { waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';

export type Credentials = { virtualnumApi: string; virtualnumSmsApi: string };
export interface Imported {
	id: string;
	versionId: string;
	nodes: Array<{ name: string; type: string; webhookId?: string; parameters?: unknown }>;
	pinData?: Record<string, unknown[]>;
}

/** What update_virtualnum can set, besides the callback fields the trigger changes. */
const SETTABLE = [
	'description',
	'call_destination_phone',
	'active_status',
	'dial_option',
	'dial_timeout_in_sec',
	'record_option',
	'record_percentage',
	'expose',
	'disallow_callback',
	'greeting_in',
	'greeting_out',
	'ringback_tone',
	'email',
	'sms_destination_phone',
	'working_hours',
	'out_of_time_destination_phone',
	...Array.from({ length: 10 }, (_, i) => `private_field${i + 1}`),
];
const ROUTED_NUMBER = '0722000100';
const VIP = { phone: '0547770001', directLine: '0509998888' };
/** What call-started-route-vip.json answers a caller of no rule: its on-call mobile outside its opening hours. */
function ordinaryAnswer(): string {
	const now = DateTime.now().setZone('Asia/Jerusalem');
	const closes = now.weekday === 5 ? 13 : now.weekday === 6 ? 0 : 17;
	return now.hour >= 8 && now.hour < closes ? '' : '0507776666';
}

/** The Data Tables the examples read and write. */
async function exampleTables(n8n: N8nServer, project: string) {
	return {
		optOuts: await createTable(n8n, project, 'SMS opt-outs', ['phone', 'text', 'receivedAt']),
		recipients: await createTable(n8n, project, 'Campaign recipients', ['phone']),
		vips: await createTable(n8n, project, 'VIP callers', ['phone', 'directLine']),
		routes: await createTable(n8n, project, 'Call routes', [
			'callId',
			'callerNumber',
			'routedTo',
			'routeRule',
			'routeRefused',
		]),
	};
}

export async function fieldTriggerEvents(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentials: Credentials,
	check: Check,
	log: Log,
): Promise<void> {
	const project = await n8n.rest<{ id: string }>('GET', '/projects/personal');
	const tables = await exampleTables(n8n, project.id);
	await insertRows(n8n, project.id, tables.recipients, [
		{ phone: '0541112222' },
		{ phone: '0545556666' },
	]);
	await insertRows(n8n, project.id, tables.vips, [VIP]);

	const optOut = await importExample(n8n, 'sms-opt-out-to-data-table.json', credentials);
	// The URL pasted at the provider carries the trigger's Secret (version 1.1 refuses SMS without it).
	const optOutUrl = `${await publishAndWait(n8n, optOut)}?secret=${exampleSecret(optOut)}`;
	await optOutExamples(
		n8n,
		sandbox,
		{ project: project.id, tables, optOut, optOutUrl },
		credentials,
		check,
	);

	const route = await routesByRules(
		n8n,
		sandbox,
		{ project: project.id, table: tables.routes },
		credentials,
		check,
	);

	log('field profile on (update-replaces, callback-get, callback-lower, …)');
	sandbox.control.setProfile({ profile: 'field' });
	try {
		await activationKeepsSettings(n8n, sandbox, credentials.virtualnumApi, check);
		await inboundSmsUnderField(n8n, sandbox, { id: optOut.id, url: optOutUrl }, check);
		await routedCalls(sandbox, 'field profile', check);
	} finally {
		sandbox.control.setProfile({ profile: 'contract' });
		log('field profile off');
	}
	await n8n.rest('POST', `/workflows/${route.id}/deactivate`, {});
	await n8n.rest('POST', `/workflows/${optOut.id}/deactivate`, {});
	const lookup = await importExample(n8n, 'call-started-route-from-data-table.json', credentials);
	await publishAndWait(n8n, lookup, { sandbox, virtualnum: ROUTED_NUMBER });
	await routedCalls(sandbox, 'Data Table lookup', check, '');
	await n8n.rest('POST', `/workflows/${lookup.id}/deactivate`, {});
}

/** The VIP example (the trigger's routing rules) on ROUTED_NUMBER: calls routed, each logged in its Data Table. */
async function routesByRules(
	n8n: N8nServer,
	sandbox: Sandbox,
	routes: { project: string; table: string },
	credentials: Credentials,
	check: Check,
): Promise<Imported> {
	const route = await importExample(n8n, 'call-started-route-vip.json', credentials);
	await publishAndWait(n8n, route, { sandbox, virtualnum: ROUTED_NUMBER });
	await routedCalls(sandbox, 'contract profile', check);
	// The caller was answered before the run; its row comes when the run has written it.
	const logged =
		(await waitUntil(async () => {
			const rows = await tableRows(n8n, routes.project, routes.table);
			return rows.length >= 2 ? rows : undefined;
		}, 60_000)) ?? [];
	check(
		logged.some((row) => row.callerNumber === VIP.phone && row.routedTo === VIP.directLine),
		`call-started-route-vip logged what was answered in Call routes (${JSON.stringify(logged.map((r) => [r.callerNumber, r.routedTo, r.routeRule]))})`,
	);
	return route;
}

/** Under the field profile an inbound SMS still reaches the opt-out workflow as sms.received. */
async function inboundSmsUnderField(
	n8n: N8nServer,
	sandbox: Sandbox,
	optOut: { id: string; url: string },
	check: Check,
): Promise<void> {
	const before = await executionsOf(n8n, optOut.id);
	const record = await sandbox.control.inboundSms({
		virtualnum: ROUTED_NUMBER,
		from: '0549990000',
		text: 'Hello',
		url: optOut.url,
	});
	const runs = await waitUntil(async () => {
		const list = await executionsOf(n8n, optOut.id);
		return list.length > before.length && list.every(finished) ? list : undefined;
	}, 60_000);
	const data = runs ? await executionData(n8n, runs[0].id) : '';
	check(
		record.responseStatus === 200 && data.includes('sms.received') && data.includes('0549990000'),
		`field profile: an inbound SMS reached n8n as sms.received (answer ${record.responseStatus})`,
	);
}

async function optOutExamples(
	n8n: N8nServer,
	sandbox: Sandbox,
	setup: { project: string; tables: Record<string, string>; optOut: Imported; optOutUrl: string },
	credentials: Credentials,
	check: Check,
): Promise<void> {
	const answers = [];
	for (const [from, text] of [
		['0541112222', 'הסר'],
		['0543334444', 'Hello, what are your hours?'],
	]) {
		const record = await sandbox.control.inboundSms({
			virtualnum: ROUTED_NUMBER,
			from,
			text,
			url: setup.optOutUrl,
		});
		answers.push(record.responseStatus);
	}
	const runs = await waitUntil(async () => {
		const list = await executionsOf(n8n, setup.optOut.id);
		return list.length >= 2 && list.every(finished) ? list : undefined;
	}, 60_000);
	const rows = await tableRows(n8n, setup.project, setup.tables.optOuts);
	check(
		answers.every((status) => status === 200) &&
			runs?.every((run) => run.status === 'success') &&
			rows.length === 1 &&
			rows[0].phone === '0541112222' &&
			rows[0].text === 'הסר',
		`sms-opt-out-to-data-table: two received SMS ran the workflow; only the opt-out (הסר) was added to the Data Table (${JSON.stringify(rows.map((r) => r.phone))})`,
	);

	const campaign = await importExample(n8n, 'sms-campaign-skip-opted-out.json', credentials);
	sandbox.control.clearRequests();
	const run = await runFromTrigger(n8n, campaign);
	const sent = sandbox.control
		.requests({ operation: 'send_sms' })
		.flatMap((request) => (request.body ?? []) as Array<{ dest: string }>)
		.map((message) => message.dest);
	check(
		run?.status === 'success' && sent.length === 1 && sent[0].endsWith('545556666'),
		`sms-campaign-skip-opted-out: the campaign sent to 0545556666 and skipped the opted-out 0541112222 (sent: ${sent.join(', ') || 'nothing'}; ${run?.status ?? 'no execution'})`,
	);
}

async function routedCalls(
	sandbox: Sandbox,
	when: string,
	check: Check,
	otherAnswer = ordinaryAnswer(),
): Promise<void> {
	const first = sandbox.control.routes().length;
	const began = Date.now();
	await sandbox.control.placeCall({ virtualnum: ROUTED_NUMBER, caller: VIP.phone });
	const vipMs = Date.now() - began;
	await sandbox.control.placeCall({ virtualnum: ROUTED_NUMBER, caller: '0547770002' });
	const [vip, other] = sandbox.control.routes().slice(first);
	check(
		vip?.destination === VIP.directLine && vip.routedTo === VIP.directLine,
		`${when}: the VIP caller was routed to the direct line (answer "${vip?.answer}", ${vipMs} ms)`,
	);
	check(
		other !== undefined && other.destination === otherAnswer && other.answer === otherAnswer,
		`${when}: another caller got the answer expected now, "${otherAnswer}" ('' is the number's own routing) (answer "${other?.answer}")`,
	);
}

/** Activation and deactivation under update-replaces keep every settable field of the number. */
async function activationKeepsSettings(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
): Promise<void> {
	const number = sandbox.control
		.virtualnums()
		.filter((r) => r.active_status === 1)
		.map((r) => r.virtualnum)
		.at(-1)!;
	const settable = () => {
		const record = sandbox.control.virtualnum(number) as unknown as Record<string, unknown>;
		return Object.fromEntries(SETTABLE.map((field) => [field, record[field]]));
	};
	const before = settable();
	const callbackBefore = sandbox.control.virtualnum(number)!.callback_url;
	const workflow = await createSecretTrigger(n8n, number, credentialId);
	const webhookId = workflow.nodes[0].webhookId;
	await publishAndWait(n8n, workflow, { sandbox, virtualnum: number });
	const active = settable();
	const changed = SETTABLE.filter((field) => active[field] !== before[field]);
	check(
		changed.length === 0,
		`field profile: activation under replace semantics kept all ${SETTABLE.length} settable fields of ${number} (changed: ${changed.join(', ') || 'none'})`,
	);

	await getCallbackWithSecret(n8n, sandbox, { number, workflowId: workflow.id }, check);

	await n8n.rest('POST', `/workflows/${workflow.id}/deactivate`, {});
	await waitUntil(
		() =>
			!sandbox.control.virtualnum(number)?.callback_url?.includes(String(webhookId)) || undefined,
		60_000,
		250,
	);
	const after = settable();
	const lost = SETTABLE.filter((field) => after[field] !== before[field]);
	check(
		lost.length === 0 && sandbox.control.virtualnum(number)!.callback_url === callbackBefore,
		`field profile: deactivation kept every settable field and restored the callback URL (changed: ${lost.join(', ') || 'none'})`,
	);
}

// ---- n8n helpers --------------------------------------------------------------------------------

export async function createTable(
	n8n: N8nServer,
	project: string,
	name: string,
	columns: string[],
): Promise<string> {
	const table = await n8n.rest<{ id: string }>('POST', `/projects/${project}/data-tables`, {
		name,
		columns: columns.map((column) => ({ name: column, type: 'string' })),
	});
	return table.id;
}

async function insertRows(
	n8n: N8nServer,
	project: string,
	table: string,
	rows: Array<Record<string, string>>,
): Promise<void> {
	await n8n.rest('POST', `/projects/${project}/data-tables/${table}/insert`, {
		data: rows,
		returnType: 'count',
	});
}

export async function tableRows(
	n8n: N8nServer,
	project: string,
	table: string,
): Promise<Array<Record<string, unknown>>> {
	const answer = await n8n.rest<
		{ data?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>
	>('GET', `/projects/${project}/data-tables/${table}/rows?take=100&skip=0`);
	return Array.isArray(answer) ? answer : (answer.data ?? []);
}

export async function importExample(
	n8n: N8nServer,
	file: string,
	credentials: Credentials,
): Promise<Imported> {
	const workflow = JSON.parse(readExample(file)) as {
		id?: string;
		nodes: Array<{
			name: string;
			type: string;
			webhookId?: string;
			credentials?: Record<string, { id: string; name: string }>;
		}>;
		pinData?: Record<string, unknown[]>;
	};
	delete workflow.id;
	for (const node of workflow.nodes)
		for (const [type, ref] of Object.entries(node.credentials ?? {}))
			ref.id = credentials[type as keyof Credentials];
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', workflow);
	return { ...created, nodes: workflow.nodes, pinData: workflow.pinData };
}

/**
 * Publishes and waits until n8n routes the trigger's production URL for POST and GET (anything
 * but 404: an empty request starts nothing) and, for a call trigger, until the number carries it.
 */
export async function publishAndWait(
	n8n: N8nServer,
	workflow: Imported,
	number?: { sandbox: Sandbox; virtualnum: string },
): Promise<string> {
	await n8n.rest('POST', `/workflows/${workflow.id}/activate`, { versionId: workflow.versionId });
	const trigger = workflow.nodes.find((node) => node.webhookId !== undefined)!;
	const url = `${n8n.url}/webhook/${String(trigger.webhookId)}/webhook`;
	// Both entries: n8n stores the POST entry, runs create, then stores the GET entry, so for a
	// few milliseconds after the numbers carry the URL a GET callback can still get a 404.
	await waitUntil(async () => {
		for (const method of ['POST', 'GET'])
			if ((await fetch(url, { method })).status === 404) return undefined;
		return true;
	}, 60_000);
	if (number)
		await waitUntil(
			() =>
				number.sandbox.control
					.virtualnum(number.virtualnum)
					?.callback_url?.includes(String(trigger.webhookId)) || undefined,
			60_000,
			250,
		);
	return url;
}

/** The Secret set on an imported example's trigger. */
export function exampleSecret(workflow: Imported): string {
	const trigger = workflow.nodes.find((node) => node.webhookId !== undefined)!;
	return String((trigger.parameters as { options?: { secret?: string } }).options?.secret ?? '');
}

export async function runFromTrigger(n8n: N8nServer, workflow: Imported) {
	const trigger = workflow.nodes[0];
	const started = await n8n.rest<{ executionId?: string }>(
		'POST',
		`/workflows/${workflow.id}/run`,
		{
			triggerToStartFrom: {
				name: trigger.name,
				data: {
					startTime: Date.now(),
					executionTime: 0,
					executionIndex: 0,
					source: [],
					data: { main: [workflow.pinData?.[trigger.name] ?? [{ json: {} }]] },
				},
			},
		},
	);
	return await waitUntil(async () => {
		const detail = await n8n
			.rest<StoredDetail>('GET', `/executions/${String(started.executionId)}`)
			.catch(() => undefined);
		return detail && finished(detail) ? detail : undefined;
	}, 60_000);
}

async function executionData(n8n: N8nServer, id: string): Promise<string> {
	const detail = await n8n.rest<{ data: string }>('GET', `/executions/${id}`);
	return String(detail.data);
}

/** A Call Ended trigger with a Secret on one number (created, not yet published). */
async function createSecretTrigger(
	n8n: N8nServer,
	number: string,
	credentialId: string,
): Promise<Imported> {
	const webhookId = randomUUID();
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', {
		name: 'E2E: field profile, call ended with a Secret',
		settings: { executionOrder: 'v1' },
		connections: {},
		nodes: [
			{
				id: randomUUID(),
				name: 'Virtual Number Trigger',
				type: 'n8n-nodes-virtualnum.virtualNumberTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId,
				parameters: {
					events: ['callEnded'],
					numbers: 'selected',
					virtualnums: { number: [{ virtualnum: { __rl: true, mode: 'id', value: number } }] },
					options: { secret: 'field-s3cret' },
				},
				credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } },
			},
		],
	});
	const workflow: Imported = {
		...created,
		nodes: [{ name: 'Virtual Number Trigger', type: '', webhookId }],
	};
	return workflow;
}

/** Under callback-get a call-end callback comes by GET with ?event=hangup appended, and still reaches n8n. */
async function getCallbackWithSecret(
	n8n: N8nServer,
	sandbox: Sandbox,
	{ number, workflowId }: { number: string; workflowId: string },
	check: Check,
): Promise<void> {
	const { call, callbacks } = await sandbox.control.placeCall({
		virtualnum: number,
		caller: '0501234567',
		answered: true,
		durationSec: 42,
	});
	const end = callbacks.at(-1);
	const runs = await waitUntil(async () => {
		const list = await executionsOf(n8n, workflowId);
		return list.length > 0 && list.every(finished) ? list : undefined;
	}, 60_000);
	const data = runs ? await executionData(n8n, runs[0].id) : '';
	check(
		end?.method === 'GET' &&
			String(end.url).includes('?event=hangup') &&
			end.responseStatus === 200 &&
			runs?.[0].status === 'success' &&
			data.includes('call.ended') &&
			data.includes(String(call.cdr_uniqueid)) &&
			data.includes('hangup'),
		`field profile: a GET call-end callback with ?event=hangup appended and a Secret set reached n8n as Call Ended (${end?.method} …${String(end?.url).slice(-60)}, answer ${end?.responseStatus})`,
	);
}
