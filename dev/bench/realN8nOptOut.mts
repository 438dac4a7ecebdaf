/**
 * The real-n8n bench's opt-out side: Bulk SMS Send skipping the numbers of a 50,000-row opt-out
 * Data Table, the way docs/bulk-sms-node.md prescribes for n8n 2.40 (which refuses its Data Tables
 * to community nodes): n8n's own Data table node reads the table (Get, Return All, Always Output
 * Data), the recipients follow (pinned here, as a "Campaign recipients" node would output them), and
 * Send's Skip Opted-Out Numbers → List maps the table's rows with an expression.
 *
 * Every hundredth recipient (index 7, 107, 207…) is in the table, written in another spelling than
 * the recipient list uses (national, international, dashed: matched by phone identity); the other
 * rows are numbers no recipient has.
 */
import type { N8nServer } from '../harness/n8n/server.mts';
import { dataTableRows, node, type NodeJson } from '../harness/n8n/workflows.mts';

export const OPT_OUT_ROWS = 50_000;
const EVERY = 100;
const AT = 7;
/** The rows the REST API gets at a time. */
const INSERT_CHUNK = 5_000;
/** The largest campaign whose opted-out recipients the table holds. */
const LARGEST = 100_000;

/** The subscriber digits after +972 50- of the recipient `index` (realN8n.mts's recipients). */
const subscriber = (index: number) => String(1_000_000 + index).padStart(7, '0');

/** How many of the first `items` recipients are in the table. */
export const optedOutAmong = (items: number) =>
	Math.max(0, Math.floor((items - 1 - AT) / EVERY) + 1);

/** Whether a number the service received belongs to an opted-out recipient (+972 50-1xxxxxx). */
export function isOptedOut(dest: string): boolean {
	const digits = dest.replace(/\D/g, '');
	if (!digits.slice(-9).startsWith('50')) return false;
	const index = Number(digits.slice(-7)) - 1_000_000;
	return index >= 0 && index < LARGEST && index % EVERY === AT;
}

/** The table's numbers: the opted-out recipients in three spellings, then numbers of nobody. */
function optOutNumbers(): string[] {
	const numbers: string[] = [];
	for (let index = AT; index < LARGEST; index += EVERY) {
		const digits = subscriber(index);
		const spellings = [
			`050${digits}`,
			`97250${digits}`,
			`+972-50-${digits.slice(0, 3)}-${digits.slice(3)}`,
		];
		numbers.push(spellings[numbers.length % spellings.length]);
	}
	for (let other = 0; numbers.length < OPT_OUT_ROWS; other++)
		numbers.push(`052${String(2_000_000 + other).padStart(7, '0')}`);
	return numbers;
}

/** Creates the opt-out Data Table through n8n's REST API (the same database for every restart). */
export async function createOptOutTable(
	n8n: N8nServer,
	log: (line: string) => void,
): Promise<string> {
	const project = await n8n.rest<{ id: string }>('GET', '/projects/personal');
	const base = `/projects/${project.id}/data-tables`;
	const table = await n8n.rest<{ id: string }>('POST', base, {
		name: `bench opt-outs ${Date.now()}`,
		columns: [{ name: 'phone', type: 'string' }],
	});
	const numbers = optOutNumbers();
	for (let start = 0; start < numbers.length; start += INSERT_CHUNK)
		await n8n.rest('POST', `${base}/${table.id}/insert`, {
			data: numbers.slice(start, start + INSERT_CHUNK).map((phone) => ({ phone })),
			returnType: 'count',
		});
	log(
		`opt-out Data Table ${table.id}: ${numbers.length.toLocaleString('en')} rows, ` +
			`${optedOutAmong(LARGEST).toLocaleString('en')} of them recipients`,
	);
	return table.id;
}

/**
 * The side's nodes after the trigger: the Data table node reading the table, the recipients (the
 * workflow pins them on this node), and `send` skipping the table's numbers, read by Numbers From:
 * List with an expression (`list`), or An Earlier Node's Items (`nodeItems`, no expression).
 */
export function optOutNodes(
	table: string,
	send: NodeJson,
	from: 'list' | 'nodeItems' = 'list',
): NodeJson[] {
	const optOuts = dataTableRows('Opt-outs', table, { alwaysOutputData: true });
	const recipients = node('Recipients', 'n8n-nodes-base.noOp', 1, {});
	const source =
		from === 'list'
			? { from, numbers: "={{ $('Opt-outs').all().map(item => item.json.phone) }}" }
			: { from, nodeName: 'Opt-outs', field: 'phone' };
	const campaign = { optOuts: { source } };
	return [optOuts, recipients, { ...send, parameters: { ...send.parameters, campaign } }];
}
