/**
 * Statements for cdr_query's rules: reports users write (must pass), and the same reports with
 * fragments inserted; the statements the rules forbid are in sqlCorpusRefused.mts. Read by the
 * node's check test, the sandbox guard test and the oracle test (node-sql-parser, MySQL).
 */

export type CorpusRule = 1 | 2 | 3 | 4 | 'size' | 'unreadable';

export interface PassEntry {
	sql: string;
	/** Why the oracle (node-sql-parser 5.4, MySQL dialect) cannot parse or misreads it, where it does. */
	oracleGap?: string;
	/** Why the sandbox's SQLite cannot run it (answered 1013), where it cannot. */
	sandboxGap?: string;
}

export interface RefuseEntry {
	sql: string;
	rule: CorpusRule;
	why: string;
}

export const V = 'webserviceview';

// ---- must pass ----

const reports: PassEntry[] = [
	{ sql: `SELECT * FROM ${V}` },
	{ sql: `SELECT id FROM ${V} LIMIT 10` },
	{
		sql: `SELECT cdr_uniqueid, call_status FROM ${V} WHERE call_status = 'ANSWER' ORDER BY id LIMIT 3`,
	},
	{
		sql: `SELECT start_call, cdr_ani FROM ${V} WHERE start_call >= '2024-10-01 00:00:00' AND start_call < '2024-11-01 00:00:00' ORDER BY start_call DESC LIMIT 100`,
	},
	{ sql: `SELECT COUNT(*) AS calls FROM ${V}` },
	{ sql: `SELECT call_status, COUNT(*) AS n FROM ${V} GROUP BY call_status ORDER BY n DESC` },
	{
		sql: `SELECT cdr_ddi, SUM(call_duration) AS seconds FROM ${V} GROUP BY cdr_ddi HAVING SUM(call_duration) > 60`,
	},
	{
		sql: `SELECT EXTRACT(HOUR FROM start_call) AS h, COUNT(*) AS n FROM ${V} GROUP BY h ORDER BY h`,
	},
	{ sql: `SELECT EXTRACT(YEAR FROM start_call) AS y FROM ${V}` },
	{ sql: `SELECT TRIM(LEADING '0' FROM cdr_ani) AS caller FROM ${V}` },
	{ sql: `SELECT TRIM(BOTH ' ' FROM user_name) AS name FROM ${V}` },
	{ sql: `SELECT TRIM(cdr_ani) AS c FROM ${V}` },
	{ sql: `SELECT cdr_ani AS \`caller#1\` FROM ${V}` },
	{
		sql: `SELECT call_duration--1 AS d FROM ${V}`,
		oracleGap:
			'reads --1 as a comment; MySQL starts a comment at -- only before a space or control character',
	},
	{ sql: `SELECT id FROM ${V} WHERE call_duration - -1 > 0` },
	{ sql: `SELECT id FROM ${V} WHERE id = -1--1` },
	{ sql: `SELECT cdr_ani FROM ${V} WHERE user_name = 'It''s #1 -- best'` },
	{ sql: `SELECT cdr_ani FROM ${V} WHERE user_name = "Update; DROP -- team"` },
	{ sql: `SELECT cdr_ani FROM ${V} WHERE user_name LIKE '%SELECT%'` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = 'union select * from mysql.user'` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = 'a/*b*/c'` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = '@@version'` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = 'x:=1'` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = 'sleep(5)'` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = '; DROP TABLE x'` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = 'from users'` },
	{ sql: `SELECT 'SELECT' AS word FROM ${V}` },
	{ sql: `SELECT id AS \`select\`, cdr_ani AS \`from\` FROM ${V}` },
	{ sql: `SELECT \`user_name\` AS \`union select\` FROM ${V}` },
	{ sql: `SELECT cdr_ani AS \`back\`\`tick\` FROM ${V}` },
	{ sql: `SELECT w.id, w.cdr_ani FROM ${V} w WHERE w.call_status <> 'ANSWER'` },
	{ sql: `SELECT w.id FROM ${V} AS w` },
	{ sql: `SELECT ${V}.id FROM ${V}` },
	{ sql: `SELECT \`${V}\`.\`id\` FROM \`${V}\`` },
	{ sql: `SELECT w.\`cdr_ani\` FROM ${V} AS \`w\`` },
	{ sql: `SELECT id FROM ${V} w WHERE w.id IN (1, 2) ORDER BY w.start_call` },
	{ sql: `SELECT w.* FROM ${V} w LIMIT 5` },
	{ sql: `SELECT DISTINCT cdr_ani FROM ${V}` },
	{
		sql: `SELECT cdr_ani, COUNT(*) AS calls FROM ${V} WHERE call_status IN ('ANSWER', 'NOANSWER') GROUP BY cdr_ani ORDER BY calls DESC LIMIT 20`,
	},
	{ sql: `SELECT DATE(start_call) AS day, COUNT(*) AS n FROM ${V} GROUP BY DATE(start_call)` },
	{
		sql: `SELECT DATE_FORMAT(start_call, '%Y-%m') AS month, COUNT(*) AS calls FROM ${V} GROUP BY month`,
	},
	{ sql: `SELECT id FROM ${V} WHERE start_call >= DATE_SUB(NOW(), INTERVAL 7 DAY)` },
	{ sql: `SELECT id FROM ${V} WHERE start_call >= NOW() - INTERVAL 1 MONTH` },
	{ sql: `SELECT id FROM ${V} WHERE start_call >= CURRENT_DATE - INTERVAL 1 DAY` },
	{ sql: `SELECT id, start_call + INTERVAL 1 HOUR AS later FROM ${V}` },
	{ sql: `SELECT DATE_ADD(start_call, INTERVAL 30 MINUTE) AS t FROM ${V}` },
	{ sql: `SELECT ADDDATE(start_call, 1) AS next_day FROM ${V}` },
	{ sql: `SELECT id FROM ${V} WHERE start_call BETWEEN '2024-10-01' AND '2024-12-31 23:59:59'` },
	{ sql: `SELECT id, IF(call_duration > 60, 'long', 'short') AS kind FROM ${V}` },
	{
		sql: `SELECT id, CASE WHEN call_duration = 0 THEN 'missed' ELSE 'answered' END AS outcome FROM ${V}`,
	},
	{ sql: `SELECT CONCAT(cdr_ddi, '-', cdr_ani) AS pair FROM ${V}` },
	{ sql: `SELECT SUBSTRING(cdr_ani, 1, 3) AS prefix FROM ${V}` },
	{
		sql: `SELECT SUBSTRING(cdr_ani FROM 2 FOR 3) AS part FROM ${V}`,
		oracleGap: 'does not parse SUBSTRING(x FROM a FOR b)',
	},
	{ sql: `SELECT MID(cdr_ani, 2, 3) AS m FROM ${V}` },
	{ sql: `SELECT LEFT(cdr_ani, 3) AS p FROM ${V}` },
	{ sql: `SELECT RIGHT(cdr_ani, 4) AS tail FROM ${V}` },
	{ sql: `SELECT UPPER(call_status) AS s, LOWER(user_name) AS n FROM ${V}` },
	{ sql: `SELECT REPLACE(cdr_ani, '972', '0') AS local_number FROM ${V}` },
	{ sql: `SELECT id FROM ${V} WHERE cdr_ani REGEXP '^05'` },
	{ sql: `SELECT id FROM ${V} WHERE cdr_ani RLIKE '^05[0-9]'` },
	{ sql: `SELECT id FROM ${V} WHERE cdr_ani LIKE '05%' AND call_duration >= 30` },
	{ sql: `SELECT id FROM ${V} WHERE gclid <> '' AND cdr_meta_data IS NOT NULL` },
	{ sql: `SELECT id FROM ${V} WHERE NOT (call_status = 'BUSY' OR call_status = 'NOANSWER')` },
	{ sql: `SELECT id FROM ${V} ORDER BY start_call DESC, id ASC LIMIT 10 OFFSET 20` },
	{ sql: `SELECT id FROM ${V} LIMIT 20, 10` },
	{ sql: `SELECT cdr_uniqueid, 1 AS record_file_exists FROM ${V}` },
	{
		sql: `SELECT w.call_status, 'yes' AS record_file_exists FROM ${V} AS w WHERE w.call_status <> 'ANSWER'`,
	},
	{
		sql: `SELECT ROUND(AVG(call_duration), 1) AS avg_seconds FROM ${V} WHERE call_status = 'ANSWER'`,
	},
	{ sql: `SELECT MAX(start_call) AS last_call, MIN(start_call) AS first_call FROM ${V}` },
	{ sql: `SELECT cdr_ani, COUNT(DISTINCT cdr_ddi) AS numbers FROM ${V} GROUP BY cdr_ani` },
	{ sql: `SELECT id FROM ${V} WHERE id = 1.5e1` },
	{
		sql: `SELECT id FROM ${V} WHERE id > .5`,
		oracleGap: 'does not parse a number starting with a point',
	},
	{ sql: `SELECT id FROM ${V} WHERE id IN (1, 2, 3)` },
	{ sql: `SELECT id, call_duration / 60 AS minutes FROM ${V}` },
	{ sql: `SELECT id, call_duration DIV 60 AS minutes, call_duration MOD 60 AS rest FROM ${V}` },
	{ sql: `SELECT TIMESTAMPDIFF(MINUTE, start_call, end_call) AS minutes FROM ${V}` },
	{ sql: `SELECT UNIX_TIMESTAMP(start_call) AS ts FROM ${V}` },
	{ sql: `SELECT id FROM ${V} WHERE YEAR(start_call) = 2024 AND MONTH(start_call) = 11` },
	{ sql: `SELECT id FROM ${V} WHERE HOUR(start_call) BETWEEN 9 AND 17` },
	{ sql: `SELECT DAYOFWEEK(start_call) AS dow, COUNT(*) AS n FROM ${V} GROUP BY dow` },
	{ sql: `SELECT IFNULL(onetouch, '') AS rating FROM ${V}` },
	{ sql: `SELECT COALESCE(NULLIF(gclid, ''), 'none') AS click FROM ${V}` },
	{ sql: `SELECT id FROM ${V} WHERE cdr_ani = '0501234567';` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = 'C:\\\\calls\\\\'` },
	{ sql: `SELECT id FROM ${V} WHERE user_name LIKE '%\\\\_%'` },
	{ sql: `SELECT id FROM ${V} WHERE cdr_meta_data LIKE '%"utm_source":"google"%'` },
	{
		sql: `SELECT cdr_meta_data->>'$.utm_source' AS source FROM ${V} WHERE cdr_meta_data LIKE '{%'`,
	},
	{ sql: `SELECT id, call_status FROM ${V} WHERE call_status = 'Black List'` },
	{ sql: `select id from ${V} where call_status = 'answer'` },
	{ sql: `SeLeCt id FrOm WebServiceView` },
	{ sql: `SELECT\tid\nFROM\t${V}\r\nWHERE id > 0` },
	{ sql: `  SELECT id FROM ${V}  ` },
	{ sql: `SELECT id FROM ${V} WHERE id > -1` },
	{ sql: `SELECT id FROM ${V} WHERE start_call > '2024-01-01' ORDER BY 1` },
	{ sql: `SELECT cdr_ani AS "Caller Number" FROM ${V}` },
	{ sql: `SELECT COUNT(*) AS \`count(*)\` FROM ${V}` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = N'מוקד'` },
	{
		sql: `SELECT id FROM ${V} WHERE user_name = _utf8mb4'מוקד'`,
		oracleGap: 'does not parse the character set introducer _utf8mb4',
	},
	{ sql: `SELECT id FROM ${V} WHERE user_name = 'שלום עולם'` },
	{ sql: `SELECT id FROM ${V} WHERE cdr_ani = X'30353031'` },
	{ sql: `SELECT id FROM ${V} WHERE id = 0x10` },
	{ sql: `SELECT GROUP_CONCAT(cdr_ani SEPARATOR ';') AS callers FROM ${V}` },
	{
		sql: `SELECT cdr_ddi, GROUP_CONCAT(DISTINCT call_status ORDER BY call_status SEPARATOR '|') AS statuses FROM ${V} GROUP BY cdr_ddi`,
		sandboxGap: "SQLite's group_concat takes no separator with DISTINCT",
	},
	{ sql: `SELECT CAST(call_duration AS CHAR) AS d FROM ${V}` },
	{ sql: `SELECT CAST(start_call AS DATE) AS day FROM ${V}` },
	{ sql: `SELECT id, ROW_NUMBER() OVER (ORDER BY start_call) AS n FROM ${V}` },
	{ sql: `SELECT id FROM ${V} WHERE start_call >= CURDATE()` },
	{ sql: `SELECT id FROM ${V} WHERE DATE(start_call) = CURRENT_DATE()` },
	{ sql: `SELECT id FROM ${V} WHERE start_call < CURRENT_TIMESTAMP` },
	{ sql: `SELECT id FROM ${V} WHERE LENGTH(cdr_ani) = 10` },
	{
		sql: `SELECT id FROM ${V} WHERE cdr_ddi IN ('0722000100', '0722000101') AND cdr_ani NOT IN ('0500000000')`,
	},
	{ sql: `SELECT id FROM ${V} WHERE onetouch IS NULL OR onetouch = ''` },
	{
		sql: `SELECT SUM(CASE WHEN call_status = 'ANSWER' THEN 1 ELSE 0 END) AS answered, COUNT(*) AS total FROM ${V}`,
	},
	{
		sql: `SELECT cdr_ani, MAX(call_duration) AS longest FROM ${V} GROUP BY cdr_ani HAVING COUNT(*) > 1 ORDER BY longest DESC LIMIT 5`,
	},
	{ sql: `SELECT id FROM ${V} WHERE (call_duration > 10 AND call_duration < 100) OR id = 1` },
	{
		sql: `SELECT id FROM ${V} WHERE call_status <=> 'ANSWER'`,
		oracleGap: 'does not parse the null-safe operator <=>',
	},
	{ sql: `SELECT id FROM ${V} WHERE id != 3 AND id <> 4` },
	{ sql: `SELECT SQL_NO_CACHE id FROM ${V}` },
	{ sql: `SELECT id FROM ${V} GROUP BY id WITH ROLLUP`, sandboxGap: 'SQLite has no WITH ROLLUP' },
	{ sql: `SELECT 1 AS one, id FROM ${V}` },
	{ sql: `SELECT id FROM ${V} WHERE 1 = 1` },
	{ sql: `SELECT id FROM ${V} WHERE TRUE` },
	{ sql: `SELECT id, \`call_duration\` * 2 AS double_duration FROM ${V}` },
	{
		sql: `SELECT id FROM ${V} WHERE start_call > '2024-01-01' AND call_status = 'ANSWER' AND cdr_ddi = '0722000100' ORDER BY start_call LIMIT 1000`,
	},
	{ sql: `SELECT id FROM ${V} WHERE cdr_ani = 0501234567` },
	{
		sql: `SELECT w.union FROM ${V} w`,
		sandboxGap:
			'the view has no column named union (the point: after a dot, MySQL reads union as a name, not UNION)',
	},
	{
		sql: `SELECT id FROM ${V} WHERE user_name = 'a' 'b'`,
		oracleGap: 'does not parse adjacent string literals',
	},
	{ sql: `SELECT id FROM ${V} WHERE user_name = "double ""quoted"" text"` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = 'tab\\there'` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = ''` },
	{
		sql: `SELECT COUNT(*) AS n FROM ${V} WHERE start_call >= '2024-10-01 00:00:00' AND start_call <= '2024-10-31 23:59:59' AND call_status = 'ANSWER' AND call_duration > 0`,
	},
	{ sql: `SELECT cdr_ani, call_duration FROM ${V} ORDER BY call_duration DESC LIMIT 1` },
	{ sql: `SELECT id, user_phone AS destination FROM ${V}` },
	{ sql: `SELECT id FROM ${V} WHERE cdr_uniqueid = '1714557600.123'` },
	{ sql: `SELECT id FROM ${V} WHERE id BETWEEN 1 AND 10 AND NOT call_status = 'BUSY'` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = "Sales \\"North\\""` },
	{ sql: `SELECT id FROM ${V} WHERE user_name <> 'a#b--c'` },
	{ sql: `SELECT cdr_ani AS user, cdr_ddi AS version FROM ${V}` },
	{ sql: `SELECT id FROM ${V} WHERE user_name LIKE 'into%' OR user_name LIKE '%update%'` },
	{ sql: `SELECT id AS updated_count, cdr_ani AS created_by, call_status AS selection FROM ${V}` },
	{ sql: `SELECT id FROM ${V} WHERE cdr_meta_data = '{"a":"--"}'` },
	{
		sql: `SELECT MONTH(start_call) AS m, COUNT(*) AS n FROM ${V} WHERE YEAR(start_call) = 2024 GROUP BY m ORDER BY m`,
	},
	{
		sql: `SELECT cdr_ddi, AVG(call_duration) AS avg_d, MAX(call_duration) AS max_d FROM ${V} WHERE call_status = 'ANSWER' GROUP BY cdr_ddi`,
	},
	{ sql: `SELECT id FROM ${V} WHERE start_call >= '2024-12-01' - INTERVAL 7 DAY` },
	{ sql: `SELECT id FROM ${V} WHERE DATEDIFF(end_call, start_call) = 0` },
	{ sql: `SELECT FROM_UNIXTIME(UNIX_TIMESTAMP(start_call)) AS again FROM ${V}` },
	{ sql: `SELECT id FROM ${V} ORDER BY RAND() LIMIT 1` },
	{ sql: `SELECT id FROM ${V} WHERE user_name = 'it\\\\'` },
];

/** The bytes limit itself: exactly 8192 bytes passes. */
function exactlyAtLimit(): string {
	const head = `SELECT id FROM ${V} WHERE user_name = '`;
	return `${head}${'x'.repeat(8192 - head.length - 1)}'`;
}

/** A few reports again as users also write them: lower case, over lines, with a trailing semicolon. */
function variants(): PassEntry[] {
	const plain = reports
		.filter((entry) => !entry.oracleGap && !entry.sandboxGap && !/['"`]/.test(entry.sql))
		.slice(0, 30);
	return plain.flatMap((entry) => [
		{ sql: entry.sql.toLowerCase() },
		{ sql: `${entry.sql.replace(/ FROM /, '\n  FROM ').replace(/ WHERE /, '\n WHERE ')};\n` },
	]);
}

export const MUST_PASS: PassEntry[] = [...reports, ...variants(), { sql: exactlyAtLimit() }];

// ---- generated: reports with fragments inserted ----

const FRAGMENTS = [
	' ',
	'\n',
	'id',
	'w',
	'w.',
	'.',
	V,
	'FROM',
	'WHERE',
	'AS',
	',',
	'(',
	')',
	"'",
	'"',
	'`',
	'\\',
	"''",
	'#',
	'--',
	'-- ',
	'-',
	'/*',
	'*/',
	'/*!',
	'*',
	'@',
	'@@',
	':=',
	';',
	'UNION',
	'1',
	'1e1',
	'1e1union',
	'.5',
	'INTO',
	'@x',
	'SLEEP(',
	'`sleep`(',
	'mysql.',
	'information_schema',
	'users',
	'JOIN',
	'FOR',
	'UPDATE',
	'SHARE',
	'LOCK',
	'TABLE',
	'VALUES',
	'EXTRACT(',
	'TRIM(',
	'FROM users',
	', users',
	'x.y',
	'SELECT',
	'(SELECT 1)',
	'users.id',
	'UNION SELECT 1',
	'\u00a0',
	'ı',
	'CURRENT_USER',
	'USER()',
];

/** `count` reports, each with 1-3 fragments inserted at random places (a fixed seed: the same statements every run). */
export function mutatedReports(count: number, seed: number): string[] {
	let state = seed;
	const random = (n: number) => {
		state = (state * 1103515245 + 12345) & 0x7fffffff;
		return state % n;
	};
	const bases = reports.map((entry) => entry.sql);
	return Array.from({ length: count }, () => {
		let sql = bases[random(bases.length)];
		for (let edits = 1 + random(3); edits > 0; edits--) {
			const at = random(sql.length + 1);
			sql = `${sql.slice(0, at)}${FRAGMENTS[random(FRAGMENTS.length)]}${random(2) ? ' ' : ''}${sql.slice(at)}`;
		}
		return sql;
	});
}
