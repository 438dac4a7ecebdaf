// `node dev/scripts/architecture.mjs [--measure] [--json] [--root=<checkout>]`: measures of the code,
// read from it (nothing runs): files and lines per node folder, import levels (from each node class,
// and inside each folder of nodes/), the package's calls from each node's entry to n8n's HTTP helper
// (dev/scripts/callGraph.mjs), the biggest files, dev/'s lines against nodes/'s, long lines and
// functions, exports only tests use, import cycles. `--measure` adds the duplicate pairs in nodes/
// (`duplicates --repo nodes --most 200`); `--json` prints everything, every operation's calls too.
// `--root=` measures another checkout (it needs only its files and this checkout's TypeScript):
// dev/docs/architecture.md's before and after are this command on two checkouts.
// `--check` is part of `npm run lint` (see the end of this file).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

import { callGraph } from './callGraph.mjs';
import { deepestImports, importCycles, importGraph, reachable } from './imports.mjs';
import { testOnlyExports } from './testOnlyExports.mjs';

const ROOT = resolve(
	process.argv.find((a) => a.startsWith('--root='))?.slice(7) ??
		new URL('../..', import.meta.url).pathname,
);
const flag = (name) => process.argv.includes(name);

const files = execSync('git ls-files', { cwd: ROOT, encoding: 'utf8' })
	.trim()
	.split('\n')
	.filter((f) => existsSync(join(ROOT, f)) && statSync(join(ROOT, f)).isFile());
/** Lines as `wc -l` counts them (a last line without its newline counted too), comments included. */
const lineCount = (f) => {
	const text = readFileSync(join(ROOT, f), 'utf8');
	return text.split('\n').length - (text.endsWith('\n') || text === '' ? 1 : 0);
};
const sumLines = (list) => list.reduce((sum, f) => sum + lineCount(f), 0);
const product = files.filter((f) => /^(nodes|credentials)\/.*\.ts$/.test(f));
const code = files.filter((f) => /\.(ts|mts|mjs|cjs|js)$/.test(f));

/**
 * The 600-line rule's files: every tracked text file but data and prose, which are long by nature:
 * JSON (lockfiles, example workflows, bench results, node metadata), Markdown, and images.
 */
const LONG_ALLOWED = /\.(json|md|png|svg)$/;
const MAX_FILE_LINES = 600;
const ruled = files.filter((f) => !LONG_ALLOWED.test(f));
const longFiles = ruled
	.map((f) => [f, lineCount(f)])
	.filter(([, n]) => n > MAX_FILE_LINES)
	.sort((a, b) => b[1] - a[1]);
const biggestOf = (list) =>
	list.reduce((big, f) => (lineCount(f) > lineCount(big) ? f : big), list[0]);

function longFunctions(list, limit) {
	const long = [];
	for (const file of list) {
		const text = readFileSync(join(ROOT, file), 'utf8');
		const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
		const visit = (node) => {
			if (ts.isFunctionLike(node) && node.body) {
				const start = sf.getLineAndCharacterOfPosition(node.getStart()).line;
				const end = sf.getLineAndCharacterOfPosition(node.end).line;
				if (end - start + 1 > limit) long.push(`${file}:${start + 1} (${end - start + 1} lines)`);
			}
			ts.forEachChild(node, visit);
		};
		visit(sf);
	}
	return long;
}

const longLines = (list) =>
	list.flatMap((f) =>
		readFileSync(join(ROOT, f), 'utf8')
			.split('\n')
			.flatMap((l, i) => (l.length > 120 ? [{ at: `${f}:${i + 1}`, length: l.length }] : [])),
	);

/** The dev tools held to the published code's function length (tests excepted). */
const DEV_FOLDERS = [
	'dev/sandbox/',
	'dev/harness/',
	'dev/e2e/',
	'dev/bench/',
	'dev/demo/',
	'dev/scripts/',
];
const devCode = files.filter(
	(f) =>
		DEV_FOLDERS.some((folder) => f.startsWith(folder)) &&
		/\.(mts|mjs|ts)$/.test(f) &&
		!/\.test\.mts$/.test(f),
);

// ---- the measures -------------------------------------------------------------------------------

const short = (f) => f.replace(/^nodes\//, '').replace(/\.ts$/, '');
const graph = importGraph(ROOT, product);
const nodeClasses = product.filter((f) => /\.node\.ts$/.test(f));

/** Files and lines of each node folder (every file; lines of its TypeScript). */
function folderSizes() {
	const folderOf = (f) =>
		f.startsWith('nodes/') ? f.split('/').slice(0, 2).join('/') : 'credentials';
	const folders = [...new Set(product.map(folderOf))];
	return Object.fromEntries(
		folders.map((folder) => {
			const all = files.filter((f) => f.startsWith(`${folder}/`));
			const ts = all.filter((f) => f.endsWith('.ts'));
			return [`Files and lines, ${folder}/`, `${all.length} files, ${sumLines(ts)} lines`];
		}),
	);
}

/** The longest import chain from each node class, and inside each folder of nodes/ with two files or more. */
function importLevels() {
	const out = {};
	for (const node of nodeClasses) {
		const chain = deepestImports(graph, node);
		out[`Import levels from ${short(node)}`] = `${chain.length}: ${chain.map(short).join(' → ')}`;
	}
	const folders = [...new Set(product.map((f) => dirname(f)))].sort();
	for (const folder of folders) {
		const inside = product.filter((f) => dirname(f) === folder);
		const local = importGraph(ROOT, inside);
		const chain = inside
			.map((f) => deepestImports(local, f))
			.reduce((a, b) => (b.length > a.length ? b : a));
		if (chain.length < 2) continue;
		const names = chain.map((f) => f.slice(folder.length + 1).replace(/\.ts$/, ''));
		out[`Import levels inside ${folder}/`] = `${chain.length}: ${names.join(' → ')}`;
	}
	return out;
}

/**
 * The package's calls from each entry to n8n's HTTP helper (the deepest path); for an action node
 * the deepest over its operations, and Bulk SMS → Send's own. `perOperation` gets every operation's.
 */
function helperCalls(perOperation) {
	const calls = callGraph(ROOT, product);
	const out = {};
	// The calls the entry makes down to the helper's caller: every function on the path but the entry.
	const show = (path) =>
		path ? `${path.length - 1} calls: ${path.map((p) => p.name).join(' → ')}` : 'none';
	for (const node of nodeClasses) {
		const within = reachable(graph, node);
		for (const entry of calls.entriesOf(node)) {
			const path = calls.pathFrom(entry, { files: within });
			out[`Calls to n8n's HTTP helper, ${short(node)} ${entry.name}`] = show(path);
			if (entry.name !== 'execute') continue;
			for (const operation of [...within].filter((f) => f.endsWith('.operation.ts')).sort()) {
				const one = calls.pathFrom(entry, { files: within, through: operation });
				perOperation[short(operation)] = one ? one.length - 1 : null;
				if (/^nodes\/BulkSms\/.*\/send\.operation\.ts$/.test(operation))
					out[`Calls to n8n's HTTP helper, Bulk SMS → Send`] = show(one);
			}
		}
	}
	return out;
}

/** dev/'s code lines by folder, and against nodes/'s. */
function devLines() {
	const dev = code.filter((f) => f.startsWith('dev/'));
	const nodes = sumLines(product.filter((f) => f.startsWith('nodes/')));
	const folders = [...new Set(dev.map((f) => f.split('/').slice(0, 2).join('/')))].sort();
	const parts = folders.map(
		(folder) => `${folder.slice(4)} ${sumLines(dev.filter((f) => f.startsWith(`${folder}/`)))}`,
	);
	const total = sumLines(dev);
	return {
		"Code lines, dev/ (by folder) against nodes/'s": `${total} (${parts.join(', ')}); nodes/ ${nodes}: ×${(total / nodes).toFixed(2)}`,
	};
}

function duplicatePairs() {
	const key = 'Duplicate pairs in nodes/ (duplicates --repo nodes --most 200)';
	try {
		const text = execSync('duplicates --repo nodes --most 200', { cwd: ROOT, encoding: 'utf8' });
		return { [key]: /(\d+) pairs/.exec(text)?.[1] ?? 'not found in its output' };
	} catch (error) {
		return { [key]: `not measured (${String(error.message).split('\n')[0]})` };
	}
}

const cycles = importCycles(ROOT, product);

if (flag('--check')) check();
else report();

function report() {
	const perOperation = {};
	const biggest = biggestOf(ruled);
	const productBiggest = biggestOf(product);
	const topLevel = new Set(files.map((f) => f.split('/')[0]));
	const measures = {
		...folderSizes(),
		...importLevels(),
		...helperCalls(perOperation),
		'Biggest file, nodes/ and credentials/': `${productBiggest} (${lineCount(productBiggest)} lines)`,
		'Biggest file anywhere (JSON, Markdown, images excepted)': `${biggest} (${lineCount(biggest)} lines)`,
		[`Files over ${MAX_FILE_LINES} lines (JSON, Markdown, images excepted)`]: `${longFiles.length}`,
		...devLines(),
		'Top-level entries': `${topLevel.size} (${[...topLevel].filter((n) => statSync(join(ROOT, n)).isDirectory()).length} folders)`,
		'Lines over 120 characters, nodes/ and credentials/': `${longLines(product).length}`,
		'Lines over 120 characters, all code': `${longLines(code).length} (longest ${Math.max(0, ...longLines(code).map((l) => l.length))})`,
		'Functions over 60 lines, nodes/ and credentials/': `${longFunctions(product, 60).length}`,
		'Functions over 60 lines, dev/ tools (tests excepted)': `${longFunctions(devCode, 60).length}`,
		'Exports under nodes/ and credentials/ nothing there imports': `${testOnlyExports(ROOT).length}`,
		'Import cycles in nodes/ and credentials/ (type imports too)': `${cycles.length}`,
		...(flag('--measure') ? duplicatePairs() : {}),
	};
	if (flag('--json'))
		console.log(JSON.stringify({ ...measures, callsPerOperation: perOperation }, null, 2));
	else for (const [k, v] of Object.entries(measures)) console.log(`${k.padEnd(64)} ${v}`);
}

// `--check` (part of `npm run lint`): no line of the published code over 120 characters, no function
// over 60 lines, no export under nodes/ or credentials/ that only tests (or nothing) import
// (dev/scripts/testOnlyExports.mjs), no import cycle there (dev/scripts/imports.mjs); no function
// over 60 lines in the dev tools (DEV_FOLDERS, tests excepted: they have many lines over 120
// characters, so only the function length is held); and no file over 600 lines anywhere in the
// repository (code, tests, dev tools, scripts, CI), JSON, Markdown and images excepted (LONG_ALLOWED).
// `--skip=<folder>/` leaves a folder out of the first two while it is being reworked elsewhere.
function check() {
	const skip = process.argv.filter((a) => a.startsWith('--skip=')).map((a) => a.slice(7));
	const checked = product.filter((f) => !skip.some((folder) => f.startsWith(folder)));
	const long = longLines(checked).map(({ at, length }) => `${at} (${length} characters)`);
	const longFns = longFunctions(checked, 60);
	const longDevFns = longFunctions(devCode, 60);
	const unused = testOnlyExports(ROOT);
	const failures = [
		[
			unused,
			'exports under nodes/ or credentials/ that no file there imports (make them module-private; ' +
				'test through what the nodes use)',
		],
		[
			cycles.map((c) => c.join(' ↔ ')),
			'import cycles in nodes/ or credentials/ (type imports included)',
		],
		[
			longDevFns,
			`functions over 60 lines in the dev tools (${DEV_FOLDERS.join(', ')}; split them by what each part does)`,
		],
		[long, 'lines over 120 characters in nodes/ or credentials/'],
		[longFns, 'functions over 60 lines in nodes/ or credentials/'],
		[
			longFiles.map(([f, n]) => `${f} (${n} lines)`),
			`files over ${MAX_FILE_LINES} lines (JSON, Markdown and images excepted; split them by what each part does)`,
		],
	].filter(([list]) => list.length > 0);
	for (const [list, title] of failures) console.error(`${title}:\n  ${list.join('\n  ')}`);
	if (failures.length) process.exit(1);
}
