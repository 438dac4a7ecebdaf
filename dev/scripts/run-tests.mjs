// Runs every test/**/*.test.mts and dev/test/**/*.test.mts with Node's own test runner (Node 20 has no glob support in --test).
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';

const root = new URL('../..', import.meta.url).pathname;
const only = process.argv.slice(2);

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

// TEST_TIMEOUT_MS (set by scripts/test-n8n1.mjs): a test that hangs fails after that long instead of
// stalling the run (--test-timeout is not allowed in NODE_OPTIONS).
const timeout = process.env.TEST_TIMEOUT_MS
	? [`--test-timeout=${process.env.TEST_TIMEOUT_MS}`]
	: [];

const result = spawnSync(
	process.execPath,
	['--import', 'tsx', '--test', '--test-reporter=spec', ...timeout, ...files],
	// n8n-core keeps its instance settings in N8N_USER_FOLDER: a throwaway one, not the user's ~/.n8n.
	{
		cwd: root,
		stdio: 'inherit',
		env: { ...process.env, N8N_USER_FOLDER: mkdtempSync(join(tmpdir(), 'n8n-virtualnum-test-')) },
	},
);
process.exit(result.status ?? 1);
