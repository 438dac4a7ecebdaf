// Call records live in a sql.js (SQLite) database so that cdr_query runs real SQL. The table has
// exactly the columns of the spec's view; what the view does not show (recording files, offline
// conversions) is kept beside it in memory, keyed by the row id. The text columns people filter by
// words compare without case, as under MySQL's default collation.
import type { Database, SqlJsStatic, SqlValue } from 'sql.js';
import { formatDateTime } from '../util.mts';

export interface CdrRow {
	id: number;
	start_call: string;
	end_call: string;
	call_duration: number;
	cdr_ani: string;
	cdr_ddi: string;
	user_phone: string;
	user_name: string;
	call_status: string;
	onetouch: string;
	cdr_uniqueid: string;
	cdr_meta_data: string;
	gclid: string;
}

export type NewCdr = Omit<CdrRow, 'id' | 'cdr_uniqueid'>;

export const CDR_COLUMNS = [
	'id',
	'start_call',
	'end_call',
	'call_duration',
	'cdr_ani',
	'cdr_ddi',
	'user_phone',
	'user_name',
	'call_status',
	'onetouch',
	'cdr_uniqueid',
	'cdr_meta_data',
	'gclid',
] as const;

export interface Conversion {
	conversion_value: number;
	update_time: string;
}

const MYSQL_FORMAT: Record<string, (d: Date) => string> = {
	Y: (d) => String(d.getFullYear()),
	y: (d) => String(d.getFullYear()).slice(2),
	m: (d) => String(d.getMonth() + 1).padStart(2, '0'),
	c: (d) => String(d.getMonth() + 1),
	d: (d) => String(d.getDate()).padStart(2, '0'),
	e: (d) => String(d.getDate()),
	H: (d) => String(d.getHours()).padStart(2, '0'),
	k: (d) => String(d.getHours()),
	i: (d) => String(d.getMinutes()).padStart(2, '0'),
	s: (d) => String(d.getSeconds()).padStart(2, '0'),
	S: (d) => String(d.getSeconds()).padStart(2, '0'),
	T: (d) => formatDateTime(d).slice(11),
	w: (d) => String(d.getDay()),
	'%': () => '%',
};

/** Reads a MySQL-style datetime/date string (or a unix time) as a local Date. */
function toDate(value: SqlValue): Date | undefined {
	if (value === null || value instanceof Uint8Array) return undefined;
	if (typeof value === 'number') return new Date(value * 1000);
	const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
	if (!m) return undefined;
	return new Date(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
}

const SECONDS: Record<string, number> = {
	SECOND: 1,
	MINUTE: 60,
	HOUR: 3600,
	DAY: 86400,
	WEEK: 604800,
};

/** The parts of a date MySQL reads with one function each (YEAR(d), HOUR(d), …). */
const DATE_PARTS: Record<string, (d: Date) => number> = {
	YEAR: (d) => d.getFullYear(),
	MONTH: (d) => d.getMonth() + 1,
	DAY: (d) => d.getDate(),
	DAYOFMONTH: (d) => d.getDate(),
	HOUR: (d) => d.getHours(),
	MINUTE: (d) => d.getMinutes(),
	SECOND: (d) => d.getSeconds(),
	DAYOFWEEK: (d) => d.getDay() + 1,
	WEEKDAY: (d) => (d.getDay() + 6) % 7,
};

/** The MySQL functions people put in simple report queries, as SQLite user functions. */
function registerMysqlFunctions(db: Database): void {
	registerDateFunctions(db);
	registerDateArithmetic(db);
	registerTextFunctions(db);
	db.create_function('RAND', () => Math.random());
}

function registerDateFunctions(db: Database): void {
	db.create_function('NOW', () => formatDateTime(new Date()));
	db.create_function('SYSDATE', () => formatDateTime(new Date()));
	db.create_function('CURDATE', () => formatDateTime(new Date()).slice(0, 10));
	db.create_function('CURTIME', () => formatDateTime(new Date()).slice(11));
	db.create_function('UNIX_TIMESTAMP', (v: SqlValue) => {
		const d = toDate(v);
		return d ? Math.floor(d.getTime() / 1000) : null;
	});
	db.create_function('FROM_UNIXTIME', (v: SqlValue) =>
		typeof v === 'number' ? formatDateTime(new Date(v * 1000)) : null,
	);
	db.create_function('DATE_FORMAT', (v: SqlValue, format: SqlValue) => {
		const d = toDate(v);
		if (!d || typeof format !== 'string') return null;
		return format.replace(/%(.)/g, (m, c: string) => MYSQL_FORMAT[c]?.(d) ?? m);
	});
	for (const [name, part] of Object.entries(DATE_PARTS))
		db.create_function(name, (v: SqlValue) => {
			const d = toDate(v);
			return d ? part(d) : null;
		});
	db.create_function('DATEDIFF', (a: SqlValue, b: SqlValue) => {
		const da = toDate(a);
		const dbb = toDate(b);
		if (!da || !dbb) return null;
		const day = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86400000;
		return day(da) - day(dbb);
	});
	db.create_function('TIMESTAMPDIFF', (unit: SqlValue, a: SqlValue, b: SqlValue) => {
		const da = toDate(a);
		const dbb = toDate(b);
		if (!da || !dbb || typeof unit !== 'string') return null;
		const u = unit.toUpperCase();
		if (u === 'MONTH' || u === 'YEAR') {
			const months = (dbb.getFullYear() - da.getFullYear()) * 12 + dbb.getMonth() - da.getMonth();
			return u === 'MONTH' ? months : Math.trunc(months / 12);
		}
		return Math.trunc((dbb.getTime() - da.getTime()) / 1000 / (SECONDS[u] ?? 1));
	});
}

function registerTextFunctions(db: Database): void {
	db.create_function('CHAR_LENGTH', (v: SqlValue) => (v === null ? null : [...String(v)].length));
	db.create_function('sbx_trim', (side: SqlValue, removed: SqlValue, v: SqlValue) =>
		v === null || removed === null ? null : trimText(String(side), String(removed), String(v)),
	);
	db.create_function('UCASE', (v: SqlValue) => (typeof v === 'string' ? v.toUpperCase() : v));
	db.create_function('LCASE', (v: SqlValue) => (typeof v === 'string' ? v.toLowerCase() : v));
	db.create_function('sbx_left', (v: SqlValue, n: SqlValue) =>
		v === null ? null : String(v).slice(0, Number(n)),
	);
	db.create_function('sbx_right', (v: SqlValue, n: SqlValue) =>
		v === null ? null : Number(n) <= 0 ? '' : String(v).slice(-Number(n)),
	);
	db.create_function('regexp', (pattern: SqlValue, value: SqlValue) => {
		if (pattern === null || value === null) return null;
		try {
			return new RegExp(String(pattern), 'i').test(String(value)) ? 1 : 0;
		} catch {
			return 0;
		}
	});
}

/** TRIM(LEADING|TRAILING|BOTH removed FROM text): removes whole repeats of `removed`, as MySQL does. */
function trimText(side: string, removed: string, text: string): string {
	if (removed === '') return text;
	let out = text;
	if (side !== 'TRAILING') while (out.startsWith(removed)) out = out.slice(removed.length);
	if (side !== 'LEADING') while (out.endsWith(removed)) out = out.slice(0, -removed.length);
	return out;
}

/** A MySQL DATETIME/DATE text as its parts, read as written (no time zone, no DST). */
function partsOf(value: SqlValue): { date: Date; hasTime: boolean } | undefined {
	if (typeof value !== 'string') return undefined;
	const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
	if (!m) return undefined;
	return {
		date: new Date(Date.UTC(+m[1], +m[2] - 1, +m[3], +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0))),
		hasTime: m[4] !== undefined,
	};
}

function shifted(value: SqlValue, amount: SqlValue, unit: SqlValue, sign: 1 | -1): string | null {
	const parts = partsOf(value);
	const n = Number(amount) * sign;
	if (!parts || !Number.isFinite(n) || typeof unit !== 'string') return null;
	const d = parts.date;
	const u = unit.toUpperCase();
	if (u === 'MONTH' || u === 'QUARTER' || u === 'YEAR') {
		const months = n * (u === 'YEAR' ? 12 : u === 'QUARTER' ? 3 : 1);
		const target = new Date(
			Date.UTC(
				d.getUTCFullYear(),
				d.getUTCMonth() + months,
				1,
				d.getUTCHours(),
				d.getUTCMinutes(),
				d.getUTCSeconds(),
			),
		);
		const lastDay = new Date(
			Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0),
		).getUTCDate();
		target.setUTCDate(Math.min(d.getUTCDate(), lastDay)); // 2024-01-31 + 1 MONTH = 2024-02-29, as in MySQL
		return format(target, parts.hasTime);
	}
	const seconds = SECONDS[u] ?? (u === 'MICROSECOND' ? 1e-6 : NaN);
	if (Number.isNaN(seconds)) return null;
	return format(new Date(d.getTime() + n * seconds * 1000), parts.hasTime || seconds < 86400);
}

function format(d: Date, withTime: boolean): string {
	const text = d.toISOString().replace('T', ' ').slice(0, 19);
	return withTime ? text : text.slice(0, 10);
}

/** DATE_ADD/DATE_SUB(date, amount, unit) and EXTRACT(unit, date): what the guard turns MySQL's INTERVAL and EXTRACT into. */
function registerDateArithmetic(db: Database): void {
	db.create_function('DATE_ADD', (v: SqlValue, n: SqlValue, unit: SqlValue) =>
		shifted(v, n, unit, 1),
	);
	db.create_function('DATE_SUB', (v: SqlValue, n: SqlValue, unit: SqlValue) =>
		shifted(v, n, unit, -1),
	);
	db.create_function('EXTRACT', (unit: SqlValue, v: SqlValue) => {
		const d = partsOf(v)?.date;
		if (!d || typeof unit !== 'string') return null;
		const parts: Record<string, number> = {
			YEAR: d.getUTCFullYear(),
			QUARTER: Math.floor(d.getUTCMonth() / 3) + 1,
			MONTH: d.getUTCMonth() + 1,
			DAY: d.getUTCDate(),
			HOUR: d.getUTCHours(),
			MINUTE: d.getUTCMinutes(),
			SECOND: d.getUTCSeconds(),
		};
		return parts[unit.toUpperCase()] ?? null;
	});
}

/** Unix seconds of a `Y-m-d H:i:s` local time (the first part of cdr_uniqueid). */
function startSecondsOf(start: string): number {
	const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(start);
	return m
		? Math.floor(new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]).getTime() / 1000)
		: Math.floor(Date.now() / 1000);
}

export class CdrStore {
	readonly db: Database;
	/** A bigint once ids pass 2^53 (the `id` seed option), where a number would round them. */
	private nextId: number | bigint = 1;
	readonly recordings = new Set<number>();
	readonly conversions = new Map<number, Conversion>();

	constructor(SQL: SqlJsStatic) {
		this.db = new SQL.Database();
		this.db.run(`CREATE TABLE webserviceview (
			id INTEGER PRIMARY KEY,
			start_call TEXT NOT NULL,
			end_call TEXT NOT NULL,
			call_duration INTEGER NOT NULL DEFAULT 0,
			cdr_ani TEXT NOT NULL DEFAULT '',
			cdr_ddi TEXT NOT NULL DEFAULT '',
			user_phone TEXT NOT NULL DEFAULT '',
			user_name TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
			call_status TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
			onetouch TEXT NOT NULL DEFAULT '' COLLATE NOCASE,
			cdr_uniqueid TEXT NOT NULL,
			cdr_meta_data TEXT NOT NULL DEFAULT '',
			gclid TEXT NOT NULL DEFAULT ''
		)`);
		this.db.run('CREATE INDEX webserviceview_start_call ON webserviceview (start_call)');
		registerMysqlFunctions(this.db);
	}

	/**
	 * Inserts `count` rows made one at a time by `make` (nothing is retained, so 100,000 rows take well
	 * under a second): one transaction, one prepared statement, and for big batches the start_call
	 * index is rebuilt once at the end instead of being maintained row by row.
	 */
	insertMany(
		count: number,
		make: (id: number) => { row: NewCdr; startSeconds: number; recording: boolean },
		onRow?: (row: CdrRow) => void,
	): { first_id: number; last_id: number } {
		const first = Number(this.nextId);
		const big = count > 5000;
		const statement = this.db.prepare(
			`INSERT INTO webserviceview VALUES (${CDR_COLUMNS.map(() => '?').join(',')})`,
		);
		this.db.run('BEGIN');
		try {
			if (big) this.db.run('DROP INDEX webserviceview_start_call');
			const values: SqlValue[] = new Array(CDR_COLUMNS.length);
			for (let i = 0; i < count; i++) {
				const exact = this.nextId;
				const id = Number(exact);
				const { row, startSeconds, recording } = make(id);
				const uuid = `${startSeconds}.${exact}`;
				// sql.js binds a bigint as its digits, which the INTEGER key stores exactly.
				values[0] = exact as unknown as SqlValue;
				values[1] = row.start_call;
				values[2] = row.end_call;
				values[3] = row.call_duration;
				values[4] = row.cdr_ani;
				values[5] = row.cdr_ddi;
				values[6] = row.user_phone;
				values[7] = row.user_name;
				values[8] = row.call_status;
				values[9] = row.onetouch;
				values[10] = uuid;
				values[11] = row.cdr_meta_data;
				values[12] = row.gclid;
				statement.run(values);
				this.nextId = typeof exact === 'bigint' ? exact + BigInt(1) : exact + 1;
				if (recording) this.recordings.add(id);
				onRow?.({ id, ...row, cdr_uniqueid: uuid });
			}
			if (big) this.db.run('CREATE INDEX webserviceview_start_call ON webserviceview (start_call)');
			this.db.run('COMMIT');
		} catch (error) {
			this.db.run('ROLLBACK');
			throw error;
		} finally {
			statement.free();
		}
		return { first_id: first, last_id: Number(this.nextId) - 1 };
	}

	/**
	 * The row id the next record gets, and the ones after it count on from there: ids that go
	 * backwards, jump ahead, or pass 2^53 (digits as text; rows past 2^53 are inserted exactly, but
	 * `id` in the sandbox's own views and `cdr_uniqueid` lookups round).
	 */
	continueFrom(id: number | string): void {
		const text = String(id);
		if (!/^[1-9]\d{0,18}$/.test(text))
			throw new Error(`id must be a positive whole number, got ${text}`);
		const exact = BigInt(text);
		this.nextId = exact > BigInt(Number.MAX_SAFE_INTEGER) ? exact : Number(text);
	}

	insert(row: NewCdr, recording: boolean): CdrRow {
		let created: CdrRow | undefined;
		this.insertMany(
			1,
			() => ({ row, startSeconds: startSecondsOf(row.start_call), recording }),
			(r) => (created = r),
		);
		return created as CdrRow;
	}

	/** Who took the call: set when the answer to the start callback routed it elsewhere. */
	setUserPhone(id: number, phone: string): void {
		this.db.run('UPDATE webserviceview SET user_phone = ? WHERE id = ?', [phone, id]);
	}

	/** Looks a call up by cdr_uniqueid (`<unix start>.<id>`), via the id for speed. */
	byUuid(uuid: string): CdrRow | undefined {
		const m = /^\d+\.(\d+)$/.exec(uuid.trim());
		const rows = m
			? this.select('SELECT * FROM webserviceview WHERE id = ?', [Number(m[1])])
			: this.select('SELECT * FROM webserviceview WHERE cdr_uniqueid = ?', [uuid.trim()]);
		const row = rows[0] as unknown as CdrRow | undefined;
		return row && row.cdr_uniqueid === uuid.trim() ? row : undefined;
	}

	select(sql: string, params: SqlValue[] = []): Array<Record<string, SqlValue>> {
		const statement = this.db.prepare(sql);
		try {
			statement.bind(params);
			const rows: Array<Record<string, SqlValue>> = [];
			while (statement.step()) rows.push(statement.getAsObject());
			return rows;
		} finally {
			statement.free();
		}
	}

	/** Rows in id order that pass `accept`, stopping at `limit` (so filters never read all rows). */
	scan(
		where: string,
		params: SqlValue[],
		accept: (row: CdrRow) => boolean,
		limit: number,
	): CdrRow[] {
		const statement = this.db.prepare(`SELECT * FROM webserviceview ${where} ORDER BY id`);
		const rows: CdrRow[] = [];
		try {
			statement.bind(params);
			while (rows.length < limit && statement.step()) {
				const row = statement.getAsObject() as unknown as CdrRow;
				if (accept(row)) rows.push(row);
			}
		} finally {
			statement.free();
		}
		return rows;
	}

	close(): void {
		this.db.close();
	}
}
