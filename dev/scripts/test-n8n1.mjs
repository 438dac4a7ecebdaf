// `npm run test:n8n1`: the whole suite (or the files named, as run-tests.mjs takes them) on the last
// n8n 1.x engine. Installs n8n1/ from its lockfile when needed, checks that the package under test
// and the harness both get the 1.x engine, then runs scripts/run-tests.mjs with n8n1/register.mjs
// loaded into every test process.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

const root = new URL('../..', import.meta.url).pathname;
const engineDir = join(root, 'dev', 'n8n1');
const marker = join(engineDir, 'node_modules', '.virtualnum-n8n1-lock');
const lock = readFileSync(join(engineDir, 'package-lock.json'), 'utf8');

function run(command, args, options = {}) {
	const result = spawnSync(command, args, { stdio: 'inherit', ...options });
	if (result.status !== 0) process.exit(result.status ?? 1);
}

// The marker holds the lockfile the install was made from: a changed lockfile installs again.
if (!existsSync(marker) || readFileSync(marker, 'utf8') !== lock) {
	console.log('== installing the n8n 1.x engine into n8n1/ (npm ci)');
	const started = Date.now();
	run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: engineDir });
	writeFileSync(marker, lock);
	console.log(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const register = pathToFileURL(join(engineDir, 'register.mjs')).href;
const nodeOptions = `${process.env.NODE_OPTIONS ?? ''} --import ${register}`.trim();

// What the package under test (dist/, CommonJS require) and the tests (ESM import) resolve with the
// hook loaded: every engine package must come from n8n1/, for both.
const probe = `
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
const engine = ${JSON.stringify(join(engineDir, 'node_modules') + '/')};
const fromDist = createRequire(${JSON.stringify(join(root, 'dist', 'index.js'))});
const fromEngine = createRequire(engine);
const seen = {};
let wrong = false;
for (const name of ['n8n-workflow', 'n8n-core', '@n8n/di', '@n8n/backend-common']) {
	const files = [fromDist.resolve(name), fileURLToPath(import.meta.resolve(name))];
	wrong ||= files.some((file) => !file.startsWith(engine));
	seen[name] = fromEngine(name + '/package.json').version;
}
console.log('engine seen by dist/ and by the tests:', JSON.stringify(seen));
if (wrong) { console.error('some engine package was not resolved from n8n1/'); process.exit(1); }
`;
run(process.execPath, ['--input-type=module', '-e', probe], {
	cwd: root,
	env: { ...process.env, NODE_OPTIONS: nodeOptions },
});

const expected = JSON.parse(readFileSync(join(engineDir, 'package.json'), 'utf8')).dependencies;
const installed = createRequire(join(engineDir, 'index.js'))('n8n-workflow/package.json').version;
if (installed !== expected['n8n-workflow']) {
	console.error(
		`n8n1/ has n8n-workflow ${installed}, package.json asks for ${expected['n8n-workflow']}`,
	);
	process.exit(1);
}

run(process.execPath, [join(root, 'dev', 'scripts', 'run-tests.mjs'), ...process.argv.slice(2)], {
	cwd: root,
	// A test that hangs on 1.x (a known one: Download Recording on a status answer) fails after 5 minutes
	// instead of stalling the run; the longest file (test/robustness, with its 60 s hang test) takes about 60 s.
	env: { TEST_TIMEOUT_MS: '300000', ...process.env, NODE_OPTIONS: nodeOptions },
});
