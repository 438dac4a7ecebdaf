// Answer formats and request styles: XML by default, parameters from query, urlencoded, JSON and
// multipart bodies, byte-exact prompt round-trips, the status appended to download_prompt, and
// cdr_query's rules and dialect.
import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { start, vn, vnRaw } from './helpers.mts';
import type { Sandbox } from './helpers.mts';

let sb: Sandbox;
before(async () => {
	sb = await start();
});
after(() => sb.close());
beforeEach(() => sb.control.reset());

// Values stay text, as a client that does not guess types would read them.
const xml = new XMLParser({ isArray: (name) => name === 'item', parseTagValue: false });

describe('XML and request styles', () => {
	test('without format=json the answer is XML with <item> per row', async () => {
		const res = await vnRaw(sb, { service: 'get_virtualnum', limit: 2 }, { format: null });
		assert.match(res.headers.get('content-type') ?? '', /application\/xml/);
		const text = await res.text();
		assert.ok(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>'));
		const doc = xml.parse(text);
		assert.equal(doc.response.service, 'get_virtualnum');
		assert.equal(doc.response.status.code, '200');
		assert.equal(doc.response.result.item.length, 2);
		assert.equal(doc.response.result.item[0].virtualnum, sb.control.virtualnums()[0].virtualnum);
		assert.ok('extenstion' in doc.response.result.item[0]);
	});

	test('errors are XML too, and format=xml is the same as no format', async () => {
		const res = await vnRaw(
			sb,
			{ service: 'get_virtualnum', virtualnum: '0799999999' },
			{ format: 'xml' },
		);
		const doc = xml.parse(await res.text());
		assert.equal(doc.response.status.code, '4031');
		assert.equal(doc.response.result, undefined);
	});

	test('SQL column labels that are not XML names are made safe', async () => {
		const res = await vnRaw(
			sb,
			{ service: 'cdr_query', sql: 'SELECT COUNT(*), 1 AS `ok` FROM webserviceview' },
			{ format: null },
		);
		const doc = xml.parse(await res.text());
		assert.equal(doc.response.result.item[0]['COUNT___'], '20');
	});

	test('parameters from the query, an urlencoded body, a JSON body (with numbers), GET or POST', async () => {
		const number = sb.control.virtualnums()[0].virtualnum;
		for (const via of ['query', 'form', 'json'] as const) {
			const answer = await vn(sb, 'get_virtualnum', { virtualnum: number }, { via });
			assert.equal(answer.result[0].virtualnum, number, via);
		}
		const res = await fetch(`${sb.vnUrl}/api/?service=get_virtualnum&format=json`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sb.tokens.vn}`, 'content-type': 'application/json' },
			body: JSON.stringify({ limit: 1, page: 0 }),
		});
		assert.equal(
			((await res.json()) as any).result.length,
			1,
			'service in the query, the rest in the body',
		);
	});
});

async function upload(
	bytes: Buffer,
	filename: string,
	extra: Record<string, string> = {},
): Promise<any> {
	const form = new FormData();
	form.set('service', 'upload_prompt');
	form.set('format', 'json');
	for (const [k, v] of Object.entries(extra)) form.set(k, v);
	form.set('prompt_file', new Blob([bytes]), filename);
	const res = await fetch(`${sb.vnUrl}/api/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sb.tokens.vn}` },
		body: form,
	});
	return res.json();
}

function fakeAudio(size: number, head: string): Buffer {
	const bytes = Buffer.alloc(size);
	for (let i = 0; i < size; i++) bytes[i] = (i * 7919 + (i >> 8)) & 0xff; // not compressible, not constant
	bytes.write(head, 0, 'latin1');
	return bytes;
}

describe('voice prompt files', () => {
	test('a 3 MB upload downloads byte-identical, followed by the JSON status', async () => {
		const bytes = fakeAudio(3 * 1024 * 1024, 'ID3\x03\0\0\0\0\0\0');
		const answer = await upload(bytes, 'Big Menu.mp3');
		assert.equal(answer.status.code, 200);
		assert.equal(answer.status.prompt_name, 'big_menu');
		const [request] = sb.control.requests({ operation: 'upload_prompt' });
		assert.equal(request.files?.[0].sha256, createHash('sha256').update(bytes).digest('hex'));
		assert.equal(request.files?.[0].size, bytes.length);
		assert.equal(
			JSON.stringify(request).length < 10_000,
			true,
			'the request log holds no file bytes',
		);
		const res = await vnRaw(sb, { service: 'download_prompt', prompt_name: 'big_menu' });
		assert.equal(res.headers.get('content-type'), 'audio/mpeg');
		const body = Buffer.from(await res.arrayBuffer());
		assert.ok(body.subarray(0, bytes.length).equals(bytes), 'file bytes identical');
		assert.deepEqual(JSON.parse(body.subarray(bytes.length).toString('utf8')), {
			service: 'download_prompt',
			status: { code: 200, description: 'Prompt downloaded' },
		});
		const listed = (await vn(sb, 'get_prompts_list')).result.find(
			(p: any) => p.name === 'big_menu',
		);
		assert.equal(listed.size, bytes.length);
	});

	test('without format=json the appended status is XML', async () => {
		const res = await vnRaw(
			sb,
			{ service: 'download_prompt', prompt_name: 'after_hours' },
			{ format: null },
		);
		const body = Buffer.from(await res.arrayBuffer());
		assert.equal(body.toString('latin1', 0, 4), 'RIFF');
		const size = sb.control.prompts().find((p) => p.name === 'after_hours')!.size;
		const trailer = body.subarray(size).toString('utf8');
		assert.ok(trailer.startsWith('<?xml'));
		assert.equal(xml.parse(trailer).response.status.code, '200');
	});

	test('formats are recognised by magic bytes, or by extension when the bytes say nothing', async () => {
		const samples: Array<[string, string]> = [
			['a.flac', 'fLaC'],
			['b.ogg', 'OggS'],
			['c.m4a', '\0\0\0\x20ftypM4A '],
			['d.amr', '#!AMR\n'],
			['e.aac', '\xff\xf1\x50\x80'],
			['f.opus', 'OggS\0\x02' + '\0'.repeat(22) + 'OpusHead'],
			['g.bin', 'RIFF\0\0\0\0WAVE'],
			['h.wav', 'just some bytes'],
		];
		for (const [name, head] of samples) {
			const answer = await upload(fakeAudio(2048, head), name);
			assert.equal(answer.status.code, 200, `${name}: ${answer.status.description}`);
		}
		const types = Object.fromEntries(sb.control.prompts().map((p) => [p.name, p.type]));
		assert.deepEqual(
			[types.a, types.b, types.c, types.d, types.e, types.f, types.g, types.h],
			['flac', 'ogg', 'm4a', 'amr', 'aac', 'opus', 'wav', 'wav'],
		);
		assert.equal((await upload(fakeAudio(64, 'hello'), 'notes.txt')).status.code, 9023);
	});

	test('upload params may also come in the query string', async () => {
		const form = new FormData();
		form.set('prompt_file', new Blob([fakeAudio(1000, 'RIFF\0\0\0\0WAVE')]), 'query-style.wav');
		const res = await fetch(`${sb.vnUrl}/api/?service=upload_prompt&format=json`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sb.tokens.vn}` },
			body: form,
		});
		assert.equal(((await res.json()) as any).status.prompt_name, 'query-style');
	});
});

describe('cdr_query rules and dialect', () => {
	const rejected: Array<[string, string, RegExp]> = [
		['too long', `SELECT id FROM webserviceview WHERE cdr_ani = '${'1'.repeat(8200)}'`, /8192/],
		['not SELECT first', 'WITH x AS (SELECT 1) SELECT * FROM webserviceview', /start with SELECT/],
		['another table', 'SELECT * FROM cdr', /webserviceview/],
		['a join', 'SELECT * FROM webserviceview w JOIN users u ON u.id = w.id', /webserviceview/],
		['a comma join', 'SELECT * FROM webserviceview, sqlite_master', /schema|webserviceview/],
		['stacked', 'SELECT id FROM webserviceview; SELECT 1', /one statement/],
		[
			'subquery',
			'SELECT id FROM webserviceview WHERE id IN (SELECT id FROM webserviceview)',
			/exactly one SELECT/,
		],
		['union', 'SELECT id FROM webserviceview UNION ALL SELECT id FROM webserviceview', /UNION/],
		['DROP', 'SELECT id FROM webserviceview WHERE 1 = 1 OR DROP', /DROP/],
		['INTO OUTFILE', "SELECT id FROM webserviceview INTO OUTFILE '/tmp/x'", /INTO OUTFILE/],
		['LOAD_FILE', "SELECT LOAD_FILE('/etc/passwd') FROM webserviceview", /LOAD_FILE/],
		['information_schema', 'SELECT * FROM information_schema.tables', /information_schema/],
		['mysql schema', 'SELECT user FROM mysql.user', /mysql/],
		['-- comment', 'SELECT id FROM webserviceview -- hi', /comments/],
		['# comment', 'SELECT id FROM webserviceview # hi', /comments/],
		['/* */ comment', 'SELECT /* hi */ id FROM webserviceview', /comments/],
		['@@ variable', 'SELECT @@version FROM webserviceview', /@@/],
		[':= assignment', 'SELECT @a := 1 FROM webserviceview', /:=/],
		['SLEEP()', 'SELECT SLEEP(5) FROM webserviceview', /SLEEP/],
		['BENCHMARK()', 'SELECT BENCHMARK(10, 1) FROM webserviceview', /BENCHMARK/],
		['GET_LOCK()', "SELECT GET_LOCK('a', 1) FROM webserviceview", /GET_LOCK/],
		['SQLite catalogue', 'SELECT name FROM sqlite_master', /webserviceview/],
		[
			'SQLite table function',
			"SELECT id FROM webserviceview, pragma_table_info('webserviceview')",
			/webserviceview/,
		],
	];
	for (const [why, sql, reason] of rejected) {
		test(`1012: ${why}`, async () => {
			const answer = await vn(sb, 'cdr_query', { sql }, { via: 'form' });
			assert.equal(answer.status.code, 1012, answer.status.description);
			assert.match(answer.status.description, reason);
		});
	}

	test('keywords inside string literals are values, not statements', async () => {
		sb.control.seed({ cdr: { user_name: "Update; DROP -- team's #1", cdr_ani: '0501231234' } });
		const answer = await vn(sb, 'cdr_query', {
			sql: "SELECT user_name FROM webserviceview WHERE user_name = 'Update; DROP -- team''s #1'",
		});
		assert.equal(answer.status.code, 200, answer.status.description);
		assert.equal(answer.result[0].user_name, "Update; DROP -- team's #1");
		const escaped = await vn(sb, 'cdr_query', {
			sql: `SELECT COUNT(*) AS n FROM webserviceview WHERE user_name = "Update; DROP -- team\\'s #1";`,
		});
		assert.equal(
			escaped.result[0].n,
			1,
			'double quotes and backslash escapes as in MySQL; one trailing ; is fine',
		);
	});

	test('record_file_exists is emptied where no recording exists', async () => {
		const answer = await vn(sb, 'cdr_query', {
			sql: 'SELECT cdr_uniqueid, 1 AS record_file_exists FROM webserviceview ORDER BY id',
		});
		const expected = new Map(sb.control.cdrs().map((r) => [r.cdr_uniqueid, r.has_recording]));
		assert.equal(answer.result.length, 20);
		for (const row of answer.result) {
			assert.equal(row.record_file_exists, expected.get(row.cdr_uniqueid) ? 1 : '');
			assert.deepEqual(Object.keys(row), ['cdr_uniqueid', 'record_file_exists']);
		}
		const aliased = await vn(sb, 'cdr_query', {
			sql: "SELECT w.call_status, 'yes' AS record_file_exists FROM webserviceview AS w WHERE w.call_status <> 'ANSWER'",
		});
		assert.ok(
			aliased.result.every((r: any) => r.record_file_exists === ''),
			'unanswered calls have no recording',
		);
	});

	test('common MySQL functions work', async () => {
		const sql = `SELECT DATE_FORMAT(start_call, '%Y-%m') AS month, COUNT(*) AS calls, SUM(call_duration) AS seconds,
			HOUR(start_call) AS h, UNIX_TIMESTAMP(start_call) AS ts, CONCAT(cdr_ddi, '-', cdr_ani) AS pair, IFNULL(NULL, 'x') AS fallback,
			IF(call_duration > 60, 'long', 'short') AS kind, LEFT(cdr_ani, 3) AS pre, DATEDIFF('2024-12-31', DATE(start_call)) AS days,
			TIMESTAMPDIFF(MINUTE, start_call, end_call) AS minutes, UCASE(call_status) AS up
			FROM webserviceview WHERE start_call >= DATE_SUB('2025-01-01 00:00:00', INTERVAL 3 MONTH) AND start_call < '2025-01-01' - INTERVAL 0 DAY
			AND cdr_ani REGEXP '^05' AND start_call < NOW() GROUP BY month ORDER BY month LIMIT 0, 10`;
		const answer = await vn(sb, 'cdr_query', { sql });
		assert.equal(answer.status.code, 200, answer.status.description);
		assert.deepEqual(
			answer.result.map((r: any) => r.month),
			['2024-10', '2024-11', '2024-12'],
		);
		assert.equal(
			answer.result.reduce((n: number, r: any) => n + r.calls, 0),
			20,
		);
		assert.equal(answer.result[0].fallback, 'x');
		assert.equal(answer.result[0].pre, '050');
	});
});

describe('working hours', () => {
	test('168 characters from Sunday 00:00, one per hour, 1 open', async () => {
		const [first, second] = sb.control.virtualnums().map((n) => n.virtualnum);
		const now = new Date();
		const index = now.getDay() * 24 + now.getHours();
		const openNow = Array.from({ length: 168 }, (_, i) => (i === index ? '1' : '0')).join('');
		sb.control.seed({ virtualnum: { virtualnum: second, working_hours: openNow } });
		const params = {
			virtualnum1: first,
			virtualnum2: second,
			destination1: '0501234567',
			destination2: '0507654321',
		};
		assert.equal((await vn(sb, 'create_virtualnum_call_v2', params)).status.code, 200);
		const closedNow = Array.from({ length: 168 }, (_, i) => (i === index ? '0' : '1')).join('');
		sb.control.seed({ virtualnum: { virtualnum: second, working_hours: closedNow } });
		assert.equal((await vn(sb, 'create_virtualnum_call_v2', params)).status.code, 3039);
	});
});
