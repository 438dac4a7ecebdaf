// `node dev/scripts/run-tests.mjs [<part-of-path> …] [--isolate] [--concurrency=<n>] [--test-name-pattern=…]`:
// every test/**/*.test.mts and dev/test/**/*.test.mts (or those whose path contains a part) on Node's
// own test runner (Node 20 has no glob support in --test); options of `node --test` (`--test-…`) are
// passed on.
//
// Where the time went (dev/docs/development.md, "How long the tests take"): each file in a process
// of its own spent about 2 s of CPU loading tsx, n8n-workflow, n8n-core and the built package before
// its first test, for 167 files; and `node --test` runs one file at a time on 2 cores. So the files
// run in a few worker processes side by side that load all that once: each worker takes the next
// file nobody has taken yet, runs it in a `describe` of its own (dev/scripts/testGroup.mjs: its hooks,
// its sandbox and its environment stay its own), then takes the next, so the workers end together.
// `--isolate` runs each file in its own process, as before, to tell whether a failure comes from a
// file run after another.
import {
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const root = new URL('../..', import.meta.url).pathname;
const args = process.argv.slice(2);
const only = args.filter((arg) => !arg.startsWith('--'));
const passedOn = args.filter((arg) => arg.startsWith('--test-'));
const isolate = args.includes('--isolate');
const concurrency = Number(
	args.find((arg) => arg.startsWith('--concurrency='))?.slice(14) ??
		process.env.TEST_CONCURRENCY ??
		// One worker per core: a test that times itself (a deadline, a wait) has a core of its own, as
		// when the files ran one at a time.
		availableParallelism(),
);

function collect(dir) {
	const found = [];
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) found.push(...collect(path));
		else if (name.endsWith('.test.mts')) found.push(path);
	}
	return found;
}

const files = [...collect(join(root, 'test')), ...collect(join(root, 'dev', 'test'))]
	.map((file) => relative(root, file))
	.filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
	.sort();

if (files.length === 0) {
	console.error('no test files matched', only);
	process.exit(1);
}

// n8n-core keeps its instance settings in N8N_USER_FOLDER: a throwaway one, not the user's ~/.n8n.
const scratch = mkdtempSync(join(tmpdir(), 'n8n-virtualnum-test-'));
// TEST_TIMEOUT_MS (set by dev/scripts/test-n8n1.mjs): a test file that hangs fails after that long
// instead of stalling the run (--test-timeout is not allowed in NODE_OPTIONS).
const timeout = Number(process.env.TEST_TIMEOUT_MS ?? 0) || undefined;

/**
 * The time zone a file sets for its process (`process.env.TZ = '…'` at its top): such a file runs
 * only with files of the same zone, in a worker whose zone is set before anything loads, because
 * libraries keep what they made in the zone they started with (luxon's date formats).
 */
const zoneOf = (file) =>
	/^process\.env\.TZ = '([^']+)';$/m.exec(readFileSync(join(root, file), 'utf8'))?.[1];

/** Writes a worker's entry: its zone set first, then the files of `list` it takes (`claims`: whom it shares them with). */
function workerEntry(name, list, { zone, claims = join(scratch, `claims-${name}`) } = {}) {
	const entry = join(scratch, `${name}.mjs`);
	mkdirSync(claims, { recursive: true });
	const runner = pathToFileURL(join(root, 'dev', 'scripts', 'testGroup.mjs')).href;
	const lines = [
		...(zone ? [`process.env.TZ = ${JSON.stringify(zone)};`] : []),
		`const { runFiles } = await import(${JSON.stringify(runner)});`,
		`await runFiles(${JSON.stringify({ root, files: list.map((file) => join(root, file)), claims, timeout })});`,
	];
	writeFileSync(entry, `${lines.join('\n')}\n`);
	return entry;
}

let entries = files;
if (!isolate && files.length > 1) {
	const zones = new Map(files.map((file) => [file, zoneOf(file)]));
	const plain = files.filter((file) => !zones.get(file));
	// The zones' workers first: the plain workers that start after them still find files to take.
	entries = [...new Set(zones.values())].filter(Boolean).map((zone, index) =>
		workerEntry(
			`zone-${index + 1}`,
			files.filter((file) => zones.get(file) === zone),
			{ zone },
		),
	);
	const workers = Math.min(plain.length, concurrency);
	for (let index = 0; index < workers; index++)
		entries.push(workerEntry(`worker-${index + 1}`, plain, { claims: join(scratch, 'claims') }));
}

const result = spawnSync(
	process.execPath,
	[
		'--import',
		'tsx',
		'--test',
		'--test-reporter=spec',
		`--test-concurrency=${concurrency}`,
		...(isolate && timeout ? [`--test-timeout=${timeout}`] : []),
		...passedOn,
		...entries,
	],
	{ cwd: root, stdio: 'inherit', env: { ...process.env, N8N_USER_FOLDER: scratch } },
);
rmSync(scratch, { recursive: true, force: true });
process.exit(result.status ?? 1);
