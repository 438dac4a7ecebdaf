/**
 * Statements the rules of cdr_query's `sql` forbid, each with the rule it breaks and why: written
 * by hand (every bypass reported so far among them) and generated (each writing word and timing
 * function in several places). Read with sqlCorpus.mts's reports by the same tests.
 */
import { V, type RefuseEntry } from './sqlCorpus.mts';

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
