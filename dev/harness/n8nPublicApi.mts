/**
 * A stand-in for the two parts of n8n 2.40.7 that answers by SMS reply talk to over HTTP, for the
 * node tests only (the real n8n proves them in dev/e2e/lib/smsReplies.mts):
 *
 * - n8n's public Data Table API (`/api/v1/data-tables…`, public-api/v1/handlers/data-tables): the
 *   `X-N8N-API-KEY` header (401 `{"message":"unauthorized"}`), one scope per route (403
 *   `{"message":"Forbidden"}`), table IDs in nanoid form (400 otherwise), 404 `Could not find the
 *   data table: '<id>'`, a list filtered by `LOWER(name) LIKE %name%`, 409 for a name taken in the
 *   project, rows with n8n's system columns (`id` counting up, `createdAt`, `updatedAt`), unknown
 *   columns refused (400), inserts answering `[{id}]` for returnType `id`, rows read by a filter
 *   (`GET …/rows?filter=…&limit=`), and `DELETE
 *   …/rows/delete?filter=…&returnData=true` answering the deleted rows (a filter is required);
 *   filters `eq`, `neq`, `lt`, `lte`, `gt`, `gte` (a null cell matches no comparison, as in SQL);
 * - the resume URLs of waiting runs (`/webhook-waiting/<execution>/<node>`, webhooks/waiting-webhooks):
 *   each run answers as the test sets it — the node's JSON, 409 "is running already" a number of
 *   times first, n8n's "No action required" page of a finished run, or 404 for a deleted one.
 *
 * Requests are served one at a time, so a claim is atomic as n8n's transaction makes it.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';

type Cell = string | number | boolean | null;
type Row = Record<string, Cell>;

interface Table {
	id: string;
	name: string;
	projectId: string;
	columns: Array<{ name: string; type: string }>;
	rows: Row[];
	nextId: number;
	createdAt: string;
}

/** How a waiting run answers its resume URL. */
export interface WaitingRun {
	/** 409 "running already" this many times before the answer. */
	busy?: number;
	/** 'deleted' (404), 'finished' (the "No action required" page), or the node's answer. */
	state: 'deleted' | 'finished' | { virtualnumRelay: 'resumed' | 'reasked' };
	/** The bodies posted to it. */
	received: unknown[];
}

/** The Data Table scopes of an API key (n8n's public-api-permissions), all that answers by SMS reply use. */
export const DATA_TABLE_SCOPES = [
	'dataTable:list',
	'dataTable:create',
	'dataTable:read',
	'dataTableRow:create',
	'dataTableRow:read',
	'dataTableRow:delete',
];
const NANOID = /^[0-9A-Za-z_-]{16}$/;
const PROJECT = 'StandInProject01';

const nanoid = () => randomBytes(12).toString('base64url').slice(0, 16);

export interface N8nStandIn {
	url: string;
	apiKey: string;
	tables: Map<string, Table>;
	/** Runs by execution ID; their resume URL is `resumeUrl(executionId)`. */
	runs: Map<string, WaitingRun>;
	resumeUrl(executionId: string): string;
	/** API keys and their scopes (the default key has every Data Table scope). */
	keys: Map<string, string[]>;
	/**
	 * The next this-many API requests are answered 503 "Database is not ready!", as n8n answers every
	 * request while its database check fails (abstract-server.js), before routing it.
	 */
	notReady: number;
	/** Every API request: method, path, query, and when (ms since the epoch). */
	requests: Array<{ method: string; path: string; query: Record<string, string>; at: number }>;
	reset(): void;
	close(): Promise<void>;
}

function send(res: http.ServerResponse, status: number, body: unknown) {
	const text = typeof body === 'string' ? body : JSON.stringify(body);
	res.writeHead(status, {
		'Content-Type': `${typeof body === 'string' ? 'text/html' : 'application/json'}; charset=utf-8`,
	});
	res.end(text);
}

function compare(cell: Cell, condition: string, value: Cell): boolean {
	if (condition === 'eq') return cell === value;
	if (condition === 'neq') return cell !== value;
	if (cell === null || value === null) return false;
	const [a, b] =
		typeof cell === 'number'
			? [cell, Number(value)]
			: [Date.parse(String(cell)), Date.parse(String(value))];
	if (condition === 'lt') return a < b;
	if (condition === 'lte') return a <= b;
	if (condition === 'gt') return a > b;
	if (condition === 'gte') return a >= b;
	throw new Error(`The stand-in has no filter condition ${condition}`);
}

function matching(rows: Row[], filterText: string | undefined): Row[] | string {
	let filter: {
		type?: string;
		filters?: Array<{ columnName: string; condition?: string; value: Cell }>;
	};
	try {
		filter = JSON.parse(filterText ?? '') as typeof filter;
	} catch {
		return 'Invalid filter format';
	}
	const filters = filter.filters ?? [];
	if (filters.length === 0)
		return 'At least one filter condition is required for delete operations';
	return rows.filter((row) => {
		const results = filters.map((f) =>
			compare(row[f.columnName] ?? null, f.condition ?? 'eq', f.value),
		);
		return filter.type === 'or' ? results.some(Boolean) : results.every(Boolean);
	});
}

function insert(table: Table, data: Row[]): Row[] | string {
	const names = new Set(table.columns.map((column) => column.name));
	const inserted: Row[] = [];
	for (const row of data) {
		const unknown = Object.keys(row).find((key) => !names.has(key));
		if (unknown)
			return `Validation error with data table request: unknown column name '${unknown}'`;
		const now = new Date().toISOString();
		inserted.push({ ...row, id: table.nextId++, createdAt: now, updatedAt: now });
	}
	table.rows.push(...inserted);
	return inserted;
}

type Handler = (
	stand: N8nStandIn,
	query: Record<string, string>,
	body: Record<string, unknown>,
	table?: Table,
) => [number, unknown];

const ROUTES: Array<[string, RegExp, string, Handler]> = [
	[
		'GET',
		/^\/api\/v1\/data-tables$/,
		'dataTable:list',
		(stand, query) => {
			const name = (JSON.parse(query.filter ?? '{}') as { name?: string }).name?.toLowerCase();
			const data = [...stand.tables.values()]
				.filter((table) => name === undefined || table.name.toLowerCase().includes(name))
				.slice(0, Number(query.limit ?? 100))
				.map(({ rows: _rows, nextId: _nextId, ...table }) => table);
			return [200, { data, nextCursor: null }];
		},
	],
	[
		'POST',
		/^\/api\/v1\/data-tables$/,
		'dataTable:create',
		(stand, _query, body) => {
			const name = String(body.name ?? '');
			if ([...stand.tables.values()].some((table) => table.name === name))
				return [409, { message: `Data table with name '${name}' already exists in this project` }];
			const table: Table = {
				id: nanoid(),
				name,
				projectId: PROJECT,
				columns: (body.columns as Table['columns']) ?? [],
				rows: [],
				nextId: 1,
				createdAt: new Date().toISOString(),
			};
			stand.tables.set(table.id, table);
			return [201, { id: table.id, name, projectId: PROJECT, columns: table.columns }];
		},
	],
	[
		'GET',
		/^\/api\/v1\/data-tables\/([^/]+)\/rows$/,
		'dataTableRow:read',
		(_s, query, _b, table) => {
			const rows = query.filter ? matching(table!.rows, query.filter) : table!.rows;
			if (typeof rows === 'string') return [400, { message: rows }];
			return [200, { data: rows.slice(0, Number(query.limit ?? 100)), nextCursor: null }];
		},
	],
	[
		'POST',
		/^\/api\/v1\/data-tables\/([^/]+)\/rows$/,
		'dataTableRow:create',
		(_s, _q, body, table) => {
			const inserted = insert(table!, (body.data as Row[]) ?? []);
			if (typeof inserted === 'string') return [400, { message: inserted }];
			const type = body.returnType ?? 'count';
			return [
				200,
				type === 'id'
					? inserted.map(({ id }) => ({ id }))
					: type === 'all'
						? inserted
						: inserted.length,
			];
		},
	],
	[
		'DELETE',
		/^\/api\/v1\/data-tables\/([^/]+)\/rows\/delete$/,
		'dataTableRow:delete',
		(_s, query, _b, table) => {
			const rows = matching(table!.rows, query.filter);
			if (typeof rows === 'string') return [400, { message: rows }];
			table!.rows = table!.rows.filter((row) => !rows.includes(row));
			return [200, query.returnData === 'true' ? rows : true];
		},
	],
];

function api(
	stand: N8nStandIn,
	req: http.IncomingMessage,
	url: URL,
	body: Record<string, unknown>,
): [number, unknown] {
	// Outside /api/v1 n8n serves its editor: a page for any GET.
	if (!url.pathname.startsWith('/api/v1/'))
		return req.method === 'GET'
			? [200, '<!DOCTYPE html><html><body>n8n</body></html>']
			: [404, 'Not Found'];
	const scopes = stand.keys.get(String(req.headers['x-n8n-api-key'] ?? ''));
	if (!scopes) return [401, { message: 'unauthorized' }];
	for (const [method, pattern, scope, handle] of ROUTES) {
		const match = req.method === method ? pattern.exec(url.pathname) : null;
		if (!match) continue;
		if (!scopes.includes(scope)) return [403, { message: 'Forbidden' }];
		const query = Object.fromEntries(url.searchParams);
		if (match[1] === undefined) return handle(stand, query, body);
		if (!NANOID.test(match[1]))
			return [400, { message: 'request/params/dataTableId must match format "nanoid"' }];
		const table = stand.tables.get(match[1]);
		if (!table) return [404, { message: `Could not find the data table: '${match[1]}'` }];
		return handle(stand, query, body, table);
	}
	return [404, { message: 'not found' }];
}

function waiting(stand: N8nStandIn, executionId: string, body: unknown): [number, unknown] {
	const run = stand.runs.get(executionId);
	if (!run || run.state === 'deleted')
		return [404, { code: 404, message: `The execution "${executionId}" does not exist.` }];
	run.received.push(body);
	if ((run.busy ?? 0) > 0) {
		run.busy!--;
		return [409, { code: 409, message: `The execution "${executionId}" is running already.` }];
	}
	if (run.state === 'finished')
		return [200, '<!DOCTYPE html><html><body><h1>No action required</h1></body></html>'];
	return [200, run.state];
}

export async function startN8nStandIn(): Promise<N8nStandIn> {
	const apiKey = `n8n_api_${randomBytes(16).toString('hex')}`;
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const url = new URL(req.url ?? '/', stand.url);
			const text = Buffer.concat(chunks).toString('utf8');
			const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
			const resume = /^\/webhook-waiting\/([^/]+)\//.exec(url.pathname);
			if (resume) return send(res, ...waiting(stand, resume[1], body));
			if (stand.notReady > 0 && url.pathname.startsWith('/api/')) {
				stand.notReady--;
				return send(res, 503, { code: 503, message: 'Database is not ready!' });
			}
			stand.requests.push({
				method: req.method ?? '',
				path: url.pathname,
				query: Object.fromEntries(url.searchParams),
				at: Date.now(),
			});
			send(res, ...api(stand, req, url, body));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as { port: number };
	const stand: N8nStandIn = {
		url: `http://127.0.0.1:${port}`,
		apiKey,
		tables: new Map(),
		runs: new Map(),
		keys: new Map([[apiKey, DATA_TABLE_SCOPES]]),
		requests: [],
		notReady: 0,
		resumeUrl: (executionId) =>
			`${stand.url}/webhook-waiting/${executionId}/node-1?to=0501234567&via=sms&signature=x`,
		reset() {
			stand.tables.clear();
			stand.runs.clear();
			stand.requests.length = 0;
			stand.notReady = 0;
			stand.keys = new Map([[apiKey, DATA_TABLE_SCOPES]]);
		},
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
	return stand;
}
