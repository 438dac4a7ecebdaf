/**
 * The rules of cdr_query's `sql` (spec, "Rules for sql") as data: the spec's words, the words and
 * functions each rule names, and how a broken rule is told. sqlCheck.ts checks a statement against
 * them.
 */
import { VN_LIMITS } from '../../../shared/limits';

type CdrSqlRule = 1 | 2 | 3 | 4;

/** The rules as data: the spec's words, and what each rule names. */
export const CDR_SQL_RULES = {
	maxBytes: VN_LIMITS.cdrSql.maxBytes,
	view: 'webserviceview',
	spec: {
		1: 'It starts with SELECT and selects FROM webserviceview; direct access to underlying tables is rejected.',
		2: 'One statement only: no ; stacking, no subqueries, no UNION (exactly one SELECT keyword).',
		3:
			'Rejected: INSERT, UPDATE, DELETE, DROP, ALTER, CREATE, TRUNCATE, RENAME, ' +
			'GRANT, REVOKE, LOAD_FILE, INTO OUTFILE, information_schema and similar.',
		4:
			'Rejected: SQL comments (--, #, /* */), the service variables (@@), assignment ' +
			':=, and the timing functions SLEEP(), BENCHMARK(), GET_LOCK().',
	} satisfies Record<CdrSqlRule, string>,
	/** Rule 3: words that write or act beyond reading ("and similar": INTO in any form, PROCEDURE, HANDLER). */
	writingWords: [
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
		'INTO',
		'PROCEDURE',
		'HANDLER',
	],
	/** Rule 3: the server's own schemas ("information_schema and similar"); the last three only as `name.` */
	systemSchemas: ['INFORMATION_SCHEMA', 'PERFORMANCE_SCHEMA', 'MYSQL', 'SYS', 'NDBINFO'],
	/** Rule 3: functions that read files or tell about the server rather than the calls. */
	serverFunctions: [
		'LOAD_FILE',
		'DATABASE',
		'SCHEMA',
		'USER',
		'CURRENT_USER',
		'SESSION_USER',
		'SYSTEM_USER',
		'VERSION',
		'CONNECTION_ID',
		'CURRENT_ROLE',
		'ROLES_GRAPHML',
	],
	/** Rule 4: the timing functions, and the other ones that wait or hold locks. */
	timingFunctions: [
		'SLEEP',
		'BENCHMARK',
		'GET_LOCK',
		'RELEASE_LOCK',
		'RELEASE_ALL_LOCKS',
		'IS_FREE_LOCK',
		'IS_USED_LOCK',
		'MASTER_POS_WAIT',
		'SOURCE_POS_WAIT',
		'WAIT_FOR_EXECUTED_GTID_SET',
		'WAIT_UNTIL_SQL_THREAD_AFTER_GTIDS',
	],
	/** Rule 2: what combines or nests statements besides SELECT. */
	setWords: ['UNION', 'EXCEPT', 'INTERSECT'],
	subqueryWords: ['TABLE', 'VALUES'],
	/**
	 * Functions whose arguments may contain FROM (EXTRACT(HOUR FROM x), TRIM(LEADING '0' FROM x),
	 * SUBSTRING(x FROM 2)).
	 */
	fromFunctions: ['EXTRACT', 'TRIM', 'SUBSTRING', 'SUBSTR', 'MID'],
} as const;

/**
 * Why a statement is refused. `rule` is the spec's rule; 'size' the 8192-byte limit; 'unreadable'
 * a statement that cannot be read.
 */
export interface CdrSqlViolation {
	rule: CdrSqlRule | 'size' | 'unreadable';
	/** What is wrong, naming what was found and where (1-based character). */
	problem: string;
	/** What to do instead. */
	fix: string;
}

/** A violation and the character where it starts: the first one in the statement is told. */
export interface Found extends CdrSqlViolation {
	at: number;
}

/** What is wrong and which rule says so, in one sentence (the field name goes before it). */
export function describeCdrSqlViolation(violation: CdrSqlViolation): string {
	if (typeof violation.rule === 'number') {
		return `${violation.problem} — breaks rule ${violation.rule} of cdr_query: "${CDR_SQL_RULES.spec[violation.rule]}"`;
	}
	return violation.rule === 'size'
		? violation.problem
		: `${violation.problem}, so it cannot be checked against the rules of cdr_query`;
}
