// `node dev/scripts/run-tests.mjs [<part-of-path> …] [--isolate] [--concurrency=<n>] [--groups=<n>]`: every
// test/**/*.test.mts and dev/test/**/*.test.mts (or those whose path contains a part) on Node's own
// test runner (Node 20 has no glob support in --test).
//
// Where the time went (dev/docs/development.md, "How long the tests take"): each file in a process
// of its own spent about 2 s of CPU loading tsx, n8n-workflow, n8n-core and the built package before
// its first test, for 167 files; and `node --test` runs one file at a time on 2 cores. So the files
// run in a few processes ("groups") that load all that once, each file in a `describe` of its own
// (dev/scripts/testGroup.mjs: its hooks, its sandbox and its environment stay its own, one file after
// the other), and the groups run side by side. `--isolate` runs each file in its own process, as
// before, to tell whether a failure comes from a file run after another.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const root = new URL('../..', import.meta.url).pathname;
const args = process.argv.slice(2);
const only = args.filter((arg) => !arg.startsWith('--'));
const isolate = args.includes('--isolate');
const concurrency = Number(
	args.find((arg) => arg.startsWith('--concurrency='))?.slice(14) ??
		process.env.TEST_CONCURRENCY ??
		// The tests wait on loopback servers and timers as much as they compute: one more than the cores.
		availableParallelism() + 1,
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

/**
 * The files cut into `count` runs of neighbours (one area's files together), each about as big (by
 * size, which follows the number of tests): the groups end at about the same time.
 */
function groupsOf(list, count) {
	const size = (file) => statSync(join(root, file)).size;
	let left = list.reduce((sum, file) => sum + size(file), 0);
	const groups = [];
	let current = [];
	let weight = 0;
	for (const file of list) {
		current.push(file);
		weight += size(file);
		if (weight >= left / (count - groups.length) && groups.length < count - 1) {
			groups.push(current);
			left -= weight;
			current = [];
			weight = 0;
		}
	}
	if (current.length) groups.push(current);
	return groups;
}

// n8n-core keeps its instance settings in N8N_USER_FOLDER: a throwaway one, not the user's ~/.n8n.
const scratch = mkdtempSync(join(tmpdir(), 'n8n-virtualnum-test-'));
// TEST_TIMEOUT_MS (set by dev/scripts/test-n8n1.mjs): a test file that hangs fails after that long
// instead of stalling the run (--test-timeout is not allowed in NODE_OPTIONS).
const timeout = Number(process.env.TEST_TIMEOUT_MS ?? 0) || undefined;

/**
 * The time zone a file sets for its process (`process.env.TZ = '…'` at its top): such a file runs
 * only with files of the same zone, in a process whose zone is set before anything loads, because
 * libraries keep what they made in the zone they started with (luxon's date formats).
 */
const zoneOf = (file) =>
	/^process\.env\.TZ = '([^']+)';$/m.exec(readFileSync(join(root, file), 'utf8'))?.[1];

/** Writes a group's entry: its zone set first, then its files run one after the other. */
function entryOf(group, index, zone) {
	const entry = join(scratch, `group-${String(index + 1).padStart(2, '0')}.mjs`);
	const runner = pathToFileURL(join(root, 'dev', 'scripts', 'testGroup.mjs')).href;
	const paths = group.map((file) => join(root, file));
	const lines = [
		...(zone ? [`process.env.TZ = ${JSON.stringify(zone)};`] : []),
		`const { runFiles } = await import(${JSON.stringify(runner)});`,
		`await runFiles(${JSON.stringify(root)}, ${JSON.stringify(paths)}, ${timeout ?? 'undefined'});`,
	];
	writeFileSync(entry, `${lines.join('\n')}\n`);
	return entry;
}

let entries = files;
if (!isolate && files.length > 1) {
	const zones = new Map(files.map((file) => [file, zoneOf(file)]));
	const plain = files.filter((file) => !zones.get(file));
	// Three groups per process run side by side: a group slowed by a long file is not the run's end.
	const count = Number(
		args.find((arg) => arg.startsWith('--groups='))?.slice(9) ?? concurrency * 3,
	);
	const groups = plain.length ? groupsOf(plain, Math.min(plain.length, count)).map((g) => [g]) : [];
	for (const zone of new Set([...zones.values()].filter(Boolean)))
		groups.push([files.filter((file) => zones.get(file) === zone), zone]);
	entries = groups.map(([group, zone], index) => entryOf(group, index, zone));
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
		...entries,
	],
	{ cwd: root, stdio: 'inherit', env: { ...process.env, N8N_USER_FOLDER: scratch } },
);
rmSync(scratch, { recursive: true, force: true });
process.exit(result.status ?? 1);
