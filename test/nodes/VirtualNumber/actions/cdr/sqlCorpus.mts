/**
 * Statements for cdr_query's rules: reports users write (must pass) and statements the rules
 * forbid (must be refused, naming the rule), including every bypass reported in issue 13. Read by
 * the node's check test, the sandbox guard test and the oracle test (node-sql-parser, MySQL).
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

const V = 'webserviceview';

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

// ---- must refuse ----

const handwritten: RefuseEntry[] = [
	// rule 1
	{ sql: 'SELECT 1', rule: 1, why: 'no FROM' },
	{ sql: 'SELECT NOW()', rule: 1, why: 'no FROM' },
	{ sql: 'SELECT * FROM cdr', rule: 1, why: 'another table' },
	{ sql: 'SELECT * FROM users', rule: 1, why: 'another table' },
	{ sql: 'SELECT id FROM `users`', rule: 1, why: 'another table, quoted' },
	{
		sql: 'SELECT id FROM "users"',
		rule: 1,
		why: 'a string (or under ANSI_QUOTES a table) after FROM',
	},
	{ sql: `SELECT id FROM ${V}, users`, rule: 1, why: 'comma join (issue 13)' },
	{ sql: `SELECT id FROM users, ${V}`, rule: 1, why: 'another table first' },
	{
		sql: `SELECT w.id FROM ${V} w, users u WHERE w.id = u.id`,
		rule: 1,
		why: 'comma join with aliases (issue 13)',
	},
	{ sql: `SELECT id FROM ${V} JOIN users ON 1 = 1`, rule: 1, why: 'JOIN' },
	{ sql: `SELECT w.id FROM ${V} w LEFT JOIN users u ON u.id = w.id`, rule: 1, why: 'LEFT JOIN' },
	{ sql: `SELECT id FROM ${V} NATURAL JOIN users`, rule: 1, why: 'NATURAL JOIN' },
	{ sql: `SELECT id FROM ${V} STRAIGHT_JOIN users`, rule: 1, why: 'STRAIGHT_JOIN' },
	{ sql: `SELECT id FROM ${V} CROSS JOIN users`, rule: 1, why: 'CROSS JOIN' },
	{
		sql: `SELECT id FROM ${V} w JOIN ${V} x ON x.id = w.id`,
		rule: 1,
		why: 'a self-join reads the view twice',
	},
	{ sql: `SELECT id FROM otherdb.${V}`, rule: 1, why: "another database's view" },
	{ sql: `SELECT id FROM (${V})`, rule: 1, why: 'a parenthesized table reference' },
	{ sql: 'SELECT id FROM DUAL', rule: 1, why: 'DUAL' },
	{ sql: `SELECT users.password FROM ${V}`, rule: 1, why: 'a column of another table' },
	{ sql: `SELECT id FROM ${V} w WHERE x.y = 1`, rule: 1, why: 'a qualifier that is not the alias' },
	{ sql: `SELECT a.b.c FROM ${V}`, rule: 1, why: 'a three-part name' },
	{ sql: `SELECT otherdb.fn(1) FROM ${V}`, rule: 1, why: 'a stored function of another database' },
	{ sql: `SELECT w.fn(1) FROM ${V} w`, rule: 1, why: 'a stored function' },
	{ sql: `SELECT id FROM ${V} PARTITION (p0)`, rule: 1, why: 'only an alias may follow the view' },
	{
		sql: `SELECT id FROM ${V} FORCE INDEX (PRIMARY)`,
		rule: 1,
		why: 'index hints are not accepted',
	},
	{ sql: `SELECT id FROM ${V} AS 'w'`, rule: 1, why: 'a string after the view' },
	{ sql: 'SELECT name FROM sqlite_master', rule: 1, why: "the sandbox's own catalogue" },
	{
		sql: `SELECT * FROM ${V}, pragma_table_info('${V}')`,
		rule: 1,
		why: 'a SQLite table-valued function',
	},
	{
		sql: `SELECT * FROM JSON_TABLE('[1]', '$[*]' COLUMNS (x INT PATH '$')) AS t`,
		rule: 1,
		why: 'a table function',
	},
	{ sql: `SELECT id FROM ${V} WHERE id = 1 FROM users`, rule: 1, why: 'a second FROM' },
	{ sql: `DELETE FROM ${V}`, rule: 1, why: 'not a SELECT' },
	{ sql: `WITH x AS (SELECT 1) SELECT * FROM ${V}`, rule: 1, why: 'a CTE starts with WITH' },
	{ sql: `(SELECT id FROM ${V})`, rule: 1, why: 'starts with a parenthesis' },
	{ sql: 'SHOW TABLES', rule: 1, why: 'not a SELECT' },
	{ sql: `TABLE ${V}`, rule: 1, why: 'TABLE statement' },
	{ sql: 'VALUES ROW(1)', rule: 1, why: 'VALUES statement' },
	{ sql: `DESCRIBE ${V}`, rule: 1, why: 'not a SELECT' },
	{ sql: `SET @x = 1`, rule: 1, why: 'not a SELECT' },
	{ sql: `HANDLER ${V} OPEN`, rule: 1, why: 'not a SELECT' },
	// rule 2
	{ sql: `SELECT id FROM ${V}; SELECT 1`, rule: 2, why: 'stacking' },
	{ sql: `SELECT id FROM ${V}; DROP TABLE x`, rule: 2, why: 'stacking (the ; comes first)' },
	{ sql: `SELECT id FROM ${V};;`, rule: 2, why: 'a second ;' },
	{ sql: `SELECT id FROM ${V} WHERE id IN (SELECT id FROM ${V})`, rule: 2, why: 'subquery' },
	{ sql: `SELECT (SELECT 1) AS x, id FROM ${V}`, rule: 2, why: 'scalar subquery' },
	{ sql: `SELECT id FROM ${V} WHERE EXISTS (SELECT 1)`, rule: 2, why: 'EXISTS subquery' },
	{ sql: `SELECT id FROM ${V} UNION SELECT id FROM ${V}`, rule: 2, why: 'UNION' },
	{ sql: `SELECT id FROM ${V} UNION ALL SELECT password FROM users`, rule: 2, why: 'UNION ALL' },
	{ sql: `SELECT id FROM ${V} uNiOn SeLeCt 1`, rule: 2, why: 'mixed case' },
	{ sql: `SELECT id FROM ${V}\nUNION\nSELECT 1`, rule: 2, why: 'over lines' },
	{ sql: `SELECT id FROM ${V} EXCEPT SELECT id FROM ${V}`, rule: 2, why: 'EXCEPT' },
	{ sql: `SELECT id FROM ${V} INTERSECT SELECT 1`, rule: 2, why: 'INTERSECT' },
	{
		sql: `SELECT id FROM ${V} WHERE id IN (TABLE users)`,
		rule: 2,
		why: 'a TABLE subquery has no SELECT keyword',
	},
	{ sql: `SELECT id FROM ${V} WHERE (id) IN (VALUES ROW(1))`, rule: 2, why: 'a VALUES subquery' },
	{
		sql: `SELECT \`a'b\`, id FROM ${V} UNION SELECT user, password FROM mysql.user`,
		rule: 2,
		why: "issue 13: a ' in a backtick name hid the UNION",
	},
	{ sql: `SELECT id FROM ${V} WHERE 1e1union select 1`, rule: 2, why: '1e1union is 1e1 UNION' },
	{
		sql: `SELECT id FROM ${V} WHERE id = 1.5union select 1`,
		rule: 2,
		why: '1.5union is 1.5 UNION',
	},
	{
		sql: `SELECT id FROM ${V} WHERE id = 1 --1\nUNION SELECT 2`,
		rule: 2,
		why: '--1 is no comment: the UNION counts',
	},
	{
		sql: `SELECT 'a\\' UNION SELECT 1 FROM ${V} WHERE 1=1 -- ' FROM ${V}`,
		rule: 2,
		why: "issue 13: \\' read as an escape hid a UNION from a NO_BACKSLASH_ESCAPES server",
	},
	{
		sql: `SELECT "a\\" UNION SELECT 1 FROM ${V} WHERE 1=1 -- " FROM ${V}`,
		rule: 2,
		why: 'the same with double quotes',
	},
	{
		sql: `SELECT id FROM ${V} UNION/**/SELECT 1`,
		rule: 2,
		why: 'the UNION comes before the comment',
	},
	// rule 3
	{ sql: `SELECT id FROM ${V} INTO OUTFILE '/tmp/x'`, rule: 3, why: 'INTO OUTFILE' },
	{ sql: `SELECT id FROM ${V} INTO DUMPFILE '/tmp/x'`, rule: 3, why: 'INTO DUMPFILE' },
	{ sql: `SELECT id FROM ${V} INTO @x`, rule: 3, why: 'issue 13: INTO @x' },
	{ sql: `SELECT id INTO @x FROM ${V}`, rule: 3, why: 'INTO @x before FROM' },
	{ sql: `SELECT LOAD_FILE('/etc/passwd') FROM ${V}`, rule: 3, why: 'LOAD_FILE' },
	{
		sql: `SELECT \`load_file\`('/etc/passwd') FROM ${V}`,
		rule: 3,
		why: 'LOAD_FILE as a quoted name',
	},
	{ sql: `SELECT load_file ('/etc/passwd') FROM ${V}`, rule: 3, why: 'LOAD_FILE with a space' },
	{ sql: `SELECT id FROM ${V} PROCEDURE ANALYSE()`, rule: 3, why: 'issue 13: PROCEDURE ANALYSE()' },
	{ sql: 'SELECT * FROM information_schema.tables', rule: 3, why: 'information_schema' },
	{
		sql: `SELECT id FROM ${V} WHERE id IN (1) AND information_schema.x = 1`,
		rule: 3,
		why: 'information_schema as a qualifier',
	},
	{
		sql: `SELECT \`information_schema\`.\`tables\`.\`table_name\` FROM ${V}`,
		rule: 3,
		why: 'quoted information_schema',
	},
	{ sql: 'SELECT * FROM mysql.user', rule: 3, why: 'mysql.' },
	{ sql: 'SELECT * FROM performance_schema.threads', rule: 3, why: 'performance_schema' },
	{ sql: 'SELECT * FROM sys.processlist', rule: 3, why: 'sys.' },
	{ sql: `SELECT "mysql"."user" FROM ${V}`, rule: 3, why: 'mysql. under ANSI_QUOTES' },
	{ sql: `SELECT id, DATABASE() FROM ${V}`, rule: 3, why: 'the server, not the calls' },
	{ sql: `SELECT id, USER() FROM ${V}`, rule: 3, why: 'the server, not the calls' },
	{ sql: `SELECT id, VERSION() FROM ${V}`, rule: 3, why: 'the server, not the calls' },
	{ sql: `SELECT id, CURRENT_USER FROM ${V}`, rule: 3, why: 'the server, not the calls' },
	{ sql: `SELECT id, CONNECTION_ID() FROM ${V}`, rule: 3, why: 'the server, not the calls' },
	{
		sql: `SELECT INSERT(cdr_ani, 1, 3, '972') FROM ${V}`,
		rule: 3,
		why: 'the word INSERT, even as a string function',
	},
	{ sql: `SELECT id FROM ${V} FOR UPDATE`, rule: 3, why: 'FOR UPDATE' },
	// rule 4
	{ sql: `-- x\nSELECT id FROM ${V}`, rule: 4, why: 'a leading -- comment' },
	{ sql: `/* x */ SELECT id FROM ${V}`, rule: 4, why: 'a leading /* */ comment' },
	{ sql: `SELECT id FROM ${V} -- all`, rule: 4, why: '-- comment' },
	{ sql: `SELECT id FROM ${V} #all`, rule: 4, why: '# comment' },
	{ sql: `SELECT id FROM ${V} --`, rule: 4, why: '-- at the end' },
	{ sql: `SELECT id FROM ${V} --\tx`, rule: 4, why: '-- before a tab' },
	{ sql: `SELECT id FROM ${V} --\u0001x`, rule: 4, why: '-- before a control character' },
	{ sql: `SELECT id FROM ${V} WHERE id=1--\nAND 1`, rule: 4, why: '-- before a new line' },
	{ sql: `SELECT /* x */ id FROM ${V}`, rule: 4, why: '/* */ comment' },
	{ sql: `SELECT /*! SLEEP(10) */ id FROM ${V}`, rule: 4, why: 'executable comment' },
	{
		sql: `SELECT \`a'\` FROM ${V} WHERE /*!50000 SLEEP(10) */ 1`,
		rule: 4,
		why: "issue 13: a ' in a backtick name hid a /*! */ comment",
	},
	{
		sql: `SELECT /*+ MAX_EXECUTION_TIME(1) */ id FROM ${V}`,
		rule: 4,
		why: 'optimizer hint comment',
	},
	{
		sql: `SELECT id FROM ${V} WHERE id = 1 /* unterminated`,
		rule: 4,
		why: 'an unterminated comment',
	},
	{ sql: `SELECT id FROM ${V} WHERE 2 */ 1`, rule: 4, why: 'a comment end' },
	{ sql: `SELECT id FROM ${V} WHERE user_name = 'x' # '`, rule: 4, why: 'a # after the text' },
	{ sql: `SELECT \`a#b\` FROM ${V} # c`, rule: 4, why: 'the # outside the name' },
	{ sql: `SELECT @@version FROM ${V}`, rule: 4, why: '@@' },
	{ sql: `SELECT @@GLOBAL.sql_mode FROM ${V}`, rule: 4, why: '@@GLOBAL' },
	{ sql: `SELECT @ @version FROM ${V}`, rule: 4, why: '@ @ with a space' },
	{ sql: `SELECT @a := 1, id FROM ${V}`, rule: 4, why: ':=' },
	{ sql: `SELECT id FROM ${V} WHERE SLEEP(5) = 0`, rule: 4, why: 'SLEEP' },
	{ sql: `SELECT BENCHMARK(1000000, MD5(1)) FROM ${V}`, rule: 4, why: 'BENCHMARK' },
	{ sql: `SELECT GET_LOCK('a', 10) FROM ${V}`, rule: 4, why: 'GET_LOCK' },
	{ sql: `SELECT id FROM ${V} WHERE sleep (5) = 0`, rule: 4, why: 'SLEEP with a space' },
	{ sql: `SELECT \`sleep\`(3) FROM ${V}`, rule: 4, why: 'SLEEP as a quoted name' },
	{ sql: `SELECT "sleep"(3) FROM ${V}`, rule: 4, why: 'SLEEP as a name under ANSI_QUOTES' },
	{ sql: `SELECT RELEASE_LOCK('a') FROM ${V}`, rule: 4, why: 'a lock function' },
	{ sql: `SELECT IS_FREE_LOCK('a') FROM ${V}`, rule: 4, why: 'a lock function' },
	{ sql: `SELECT id FROM ${V} LOCK IN SHARE MODE`, rule: 4, why: 'issue 13: LOCK IN SHARE MODE' },
	{ sql: `SELECT id FROM ${V} FOR SHARE`, rule: 4, why: 'FOR SHARE' },
	{ sql: `SELECT id FROM ${V} w FOR SHARE NOWAIT`, rule: 4, why: 'FOR SHARE NOWAIT' },
	// size and readability
	{
		sql: `SELECT id FROM ${V} WHERE user_name = '${'x'.repeat(8200)}'`,
		rule: 'size',
		why: 'over 8192 bytes',
	},
	{
		sql: `SELECT id FROM ${V} WHERE user_name = '${'א'.repeat(4100)}'`,
		rule: 'size',
		why: 'over 8192 bytes in 4,140 characters',
	},
	{
		sql: `SELECT id FROM ${V} WHERE cdr_ani = '05`,
		rule: 'unreadable',
		why: 'an unterminated quote',
	},
	{
		sql: `SELECT id FROM ${V} WHERE user_name = "a`,
		rule: 'unreadable',
		why: 'an unterminated double quote',
	},
	{ sql: `SELECT \`id FROM ${V}`, rule: 'unreadable', why: 'an unterminated backtick' },
	{
		sql: `SELECT id FROM ${V} WHERE user_name = 'It\\'s'`,
		rule: 'unreadable',
		why: "\\' leaves a quote open under NO_BACKSLASH_ESCAPES",
	},
	{
		sql: `SELECT 'a\\' FROM ${V}`,
		rule: 'unreadable',
		why: 'the backslash escapes the closing quote',
	},
	{
		sql: `SELECT id FROM ${V} WHERE user_name = 'a\u0000b'`,
		rule: 'unreadable',
		why: 'a NUL character',
	},
];

const WRITING = [
	'INSERT',
	'UPDATE',
	'DELETE',
	'DROP',
	'ALTER',
	'CREATE',
	'TRUNCATE',
	'RENAME',
	'GRANT',
	'REVOKE',
];
const TIMING = [
	'SLEEP(1)',
	'BENCHMARK(10, 1)',
	"GET_LOCK('x', 1)",
	'MASTER_POS_WAIT(1, 2)',
	"WAIT_FOR_EXECUTED_GTID_SET('x', 1)",
];

/** Each forbidden word and function in a few places and spellings. */
function generated(): RefuseEntry[] {
	const out: RefuseEntry[] = [];
	for (const word of WRITING) {
		out.push({ sql: `SELECT id FROM ${V} WHERE ${word} = 1`, rule: 3, why: word });
		out.push({
			sql: `select id from ${V} where id = 1 or ${word.toLowerCase()}`,
			rule: 3,
			why: `${word}, lower case`,
		});
		out.push({
			sql: `SELECT id FROM ${V}\n${word} TABLE x`,
			rule: 3,
			why: `${word} on a new line`,
		});
	}
	for (const call of TIMING) {
		out.push({ sql: `SELECT ${call} FROM ${V}`, rule: 4, why: call });
		out.push({
			sql: `SELECT id FROM ${V} WHERE ${call.toLowerCase()} = 0`,
			rule: 4,
			why: `${call}, lower case`,
		});
	}
	for (const [comment, spot] of [
		['#x', 'end'],
		['-- x', 'end'],
		['/*x*/', 'middle'],
		['/*!x*/', 'middle'],
	] as const) {
		const sql =
			spot === 'end'
				? `SELECT id FROM ${V} WHERE id = 1 ${comment}`
				: `SELECT id ${comment} FROM ${V}`;
		out.push({ sql, rule: 4, why: `comment ${comment}` });
	}
	for (const table of ['users', 'mysql_user', 'webserviceview2', 'cdr_raw']) {
		out.push({ sql: `SELECT * FROM ${table} WHERE 1`, rule: 1, why: `table ${table}` });
		out.push({
			sql: `SELECT id FROM ${V} w INNER JOIN ${table} t ON t.id = w.id`,
			rule: 1,
			why: `join ${table}`,
		});
	}
	return out;
}

export const MUST_REFUSE: RefuseEntry[] = [...handwritten, ...generated()];

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
