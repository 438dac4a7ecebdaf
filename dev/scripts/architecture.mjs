// `node dev/scripts/architecture.mjs`: the counts dev/docs/architecture.md tracks, measured from the
// code: files and lines a reader crosses following Bulk SMS → Send and the trigger's lifecycle, top-level
// entries, long lines, long functions, the biggest file, import cycles. `--json` prints them as JSON,
// `--files` lists the files. `--measure` adds what takes a run: the call depth per path (the built
// nodes run on the sandbox, dev/scripts/callDepth.mts; `npm run build` first) and the duplicate
// pairs in nodes/ (`duplicates --repo nodes --most 200`): the figures of dev/docs/architecture.md.
//
// Following an operation, two lists (dev/docs/architecture.md, "How the paths are counted"):
// - the call path: the files the code runs through from the node class to the HTTP request and back
//   (node class → router → the operation's files → transport): the local imports reachable from the
//   node class, not entering other operations, editor methods (methods/, the credential tests) nor
//   concept modules;
// - the concept modules looked up on the way (phones, replies, dates, limits, status codes, error text,
//   concurrency, safe output keys, n8n workarounds, input checks, call fields, masking, paging), each a file named after
//   its concept, and what they import.
// "End to end" is both together: every local import reachable from the node class.
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

import { importCycles } from './importCycles.mjs';
import { testOnlyExports } from './testOnlyExports.mjs';

const ROOT = resolve(
	process.argv.find((a) => a.startsWith('--root='))?.slice(7) ??
		new URL('../..', import.meta.url).pathname,
);

function localImports(file) {
	const src = readFileSync(file, 'utf8');
	const found = [];
	for (const m of src.matchAll(/(?:import|export)\s[^;]*?from\s+['"](\.[^'"]+)['"]/g)) {
		const base = resolve(dirname(file), m[1]);
		const hit = [`${base}.ts`, join(base, 'index.ts'), base].find(
			(c) => c.endsWith('.ts') && existsSync(c),
		);
		if (hit) found.push(hit);
	}
	return found;
}

/** A module named after one concept (nodes/shared/<concept>.ts; before the redesign also nodes/<Node>/rules.ts). */
const CONCEPT =
	/^nodes\/(shared\/(phones|typedText|replies|replyWords|dates|limits|statusCodes|errors|itemsProgress|pool|outputKeys|n8nCompat|checks|callFields|masking|paging|asTool)|[A-Za-z]+\/(rules|limits))\.ts$/;
/**
 * Field definitions (what the editor draws: `fields.ts`, a trigger's `description.ts`;
 * `descriptions.ts` in older checkouts): read once when the node loads, not a step of a run.
 */
const DESCRIPTIONS = /(\/|\.)(descriptions?|fields)\.ts$/;
/** Entry points of the editor, not of a run: list searches, option loaders, the credential tests. */
const EDITOR = /\/methods\/|\/credentialTests\.ts$/;

/**
 * Files reachable from `start`, not entering other operations or resources than `keep`'s, nor editor
 * methods; `concepts: false` does not enter concept modules either (the call path).
 */
function path(start, keep, { concepts = true } = {}) {
	const seen = new Set();
	const stack = [resolve(ROOT, start)];
	while (stack.length) {
		const file = stack.pop();
		if (seen.has(file)) continue;
		seen.add(file);
		for (const next of localImports(file)) {
			const rel = relative(ROOT, next);
			if (/\.operation\.ts$/.test(rel) && !(keep && rel.endsWith(keep))) continue;
			// A trigger's events are its operations: one callback reads one event's file.
			if (/\/events\/(?!index\.ts$)[^/]+\.ts$/.test(rel) && !(keep && rel.endsWith(keep))) continue;
			if (keep && /\/actions\/[^/]+\//.test(rel) && !rel.startsWith(dirname(keep) + '/')) continue;
			if (EDITOR.test(rel)) continue;
			if (!concepts && (CONCEPT.test(rel) || DESCRIPTIONS.test(rel))) continue;
			stack.push(next);
		}
	}
	return counted([...seen].map((f) => relative(ROOT, f)));
}

function counted(list) {
	const files = [...list].sort();
	const lines = files.reduce(
		(sum, f) => sum + readFileSync(join(ROOT, f), 'utf8').split('\n').length,
		0,
	);
	return { files: files.length, lines, list: files };
}

/** The concept modules of an end-to-end list: those named after a concept, and the files only they import. */
function conceptsOf(all, callPath) {
	const onPath = new Set(callPath.list);
	return counted(all.list.filter((f) => !onPath.has(f)));
}

function tracked() {
	return execSync('git ls-files', { cwd: ROOT, encoding: 'utf8' })
		.trim()
		.split('\n')
		.filter((f) => existsSync(join(ROOT, f)));
}

function longFunctions(files, limit) {
	const long = [];
	for (const file of files) {
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

/** The dev tools held to the published code's function length (tests excepted). */
const DEV_FOLDERS = [
	'dev/sandbox/',
	'dev/harness/',
	'dev/e2e/',
	'dev/bench/',
	'dev/demo/',
	'dev/scripts/',
];

const files = tracked();
const product = files.filter((f) => /^(nodes|credentials)\/.*\.ts$/.test(f));
const devCode = files.filter(
	(f) =>
		DEV_FOLDERS.some((folder) => f.startsWith(folder)) &&
		/\.(mts|mjs|ts)$/.test(f) &&
		!/\.test\.mts$/.test(f),
);
const lineCount = (f) => readFileSync(join(ROOT, f), 'utf8').split('\n').length;
const biggest = product.reduce((big, f) => (lineCount(f) > lineCount(big) ? f : big), product[0]);
const code = files.filter((f) => /\.(ts|mts|mjs|js)$/.test(f));
const over = (list) =>
	list.flatMap((f) =>
		readFileSync(join(ROOT, f), 'utf8')
			.split('\n')
			.filter((l) => l.length > 120)
			.map((l) => l.length),
	);
const sendOperation = files.find((f) => /^nodes\/BulkSms\/.*send\.operation\.ts$/.test(f));
const send = path('nodes/BulkSms/BulkSms.node.ts', sendOperation);
const sendCall = path('nodes/BulkSms/BulkSms.node.ts', sendOperation, { concepts: false });
const sendConcepts = conceptsOf(send, sendCall);
const triggerFolder = 'nodes/VirtualNumberTrigger/';
const triggerEvent = `${triggerFolder}callback/events/callEnded.ts`;
const trigger = path(`${triggerFolder}VirtualNumberTrigger.node.ts`, triggerEvent);
const triggerCall = path(`${triggerFolder}VirtualNumberTrigger.node.ts`, triggerEvent, {
	concepts: false,
});
const triggerConcepts = conceptsOf(trigger, triggerCall);
const sendFolder = dirname(sendOperation) + '/';
const sendOwn = send.list.filter((f) => f.startsWith(sendFolder));
const cycles = importCycles(ROOT, product);
const topLevel = new Set(files.map((f) => f.split('/')[0]));
const report = {
	'Bulk SMS → Send, call path': `${sendCall.files} files, ${sendCall.lines} lines`,
	'Bulk SMS → Send, concept modules looked up': `${sendConcepts.files} files, ${sendConcepts.lines} lines`,
	'Bulk SMS → Send, end to end': `${send.files} files, ${send.lines} lines`,
	'Bulk SMS → Send, its own files': `${sendOwn.length} files, ${sendOwn.reduce((s, f) => s + readFileSync(join(ROOT, f), 'utf8').split('\n').length, 0)} lines`,
	'Trigger, activation → Call Ended callback → deactivation, call path': `${triggerCall.files} files, ${triggerCall.lines} lines`,
	'Trigger, concept modules looked up': `${triggerConcepts.files} files, ${triggerConcepts.lines} lines`,
	'Trigger, activation → Call Ended callback → deactivation': `${trigger.files} files, ${trigger.lines} lines`,
	'Trigger node folder': `${files.filter((f) => f.startsWith(triggerFolder)).length} files`,
	'Top-level entries': `${topLevel.size} (${[...topLevel].filter((n) => statSync(join(ROOT, n)).isDirectory()).length} folders)`,
	'Lines over 120 characters, nodes/ and credentials/': `${over(product).length}`,
	'Lines over 120 characters, all code': `${over(code).length} (longest ${Math.max(0, ...over(code))})`,
	'Functions over 60 lines, nodes/ and credentials/': `${longFunctions(product, 60).length}`,
	'Exports under nodes/ and credentials/ nothing there imports': `${testOnlyExports(ROOT).length}`,
	'Import cycles in nodes/ and credentials/ (type imports too)': `${cycles.length}`,
	'Biggest file, nodes/ and credentials/': `${biggest} (${lineCount(biggest)} lines)`,
	'Functions over 60 lines, dev/ tools (tests excepted)': `${longFunctions(devCode, 60).length}`,
	...(process.argv.includes('--measure') ? measured() : {}),
};
/** The figures that take a run: call depth per path (this checkout's build) and duplicates in nodes/. */
function measured() {
	const out = {};
	if (ROOT !== resolve(new URL('../..', import.meta.url).pathname))
		out['Call depth'] = 'measured on this checkout only (run the script of the other checkout)';
	else {
		const json = execSync('node --import tsx dev/scripts/callDepth.mts', {
			cwd: ROOT,
			encoding: 'utf8',
		});
		for (const [name, { depth, frames }] of Object.entries(
			JSON.parse(json.trim().split('\n').pop()),
		))
			out[`Call depth, ${name} (frames to n8n's HTTP helper)`] = `${depth}: ${frames.join(' → ')}`;
	}
	try {
		const text = execSync('duplicates --repo nodes --most 200', { cwd: ROOT, encoding: 'utf8' });
		out['Duplicate pairs in nodes/ (duplicates --repo nodes --most 200)'] =
			/(\d+) pairs/.exec(text)?.[1] ?? 'not found in its output';
	} catch (error) {
		out['Duplicate pairs in nodes/ (duplicates --repo nodes --most 200)'] =
			`not measured (${String(error.message).split('\n')[0]})`;
	}
	return out;
}

if (process.argv.includes('--check')) {
	// printed below only when it fails
} else if (process.argv.includes('--json'))
	console.log(
		JSON.stringify(
			{
				...report,
				sendCallPath: sendCall.list,
				sendConcepts: sendConcepts.list,
				triggerCallPath: triggerCall.list,
				triggerConcepts: triggerConcepts.list,
			},
			null,
			2,
		),
	);
else {
	for (const [k, v] of Object.entries(report)) console.log(`${k.padEnd(60)} ${v}`);
	if (process.argv.includes('--files')) {
		const show = (title, list) => console.log(`\n${title}:\n  ${list.join('\n  ')}`);
		show('Send, call path', sendCall.list);
		show('Send, concept modules', sendConcepts.list);
		show('Trigger, call path', triggerCall.list);
		show('Trigger, concept modules', triggerConcepts.list);
	}
}

// `--check` (part of `npm run lint`): no line of the published code over 120 characters, no function
// over 60 lines, no export under nodes/ or credentials/ that only tests (or nothing) import
// (dev/scripts/testOnlyExports.mjs), no import cycle there (dev/scripts/importCycles.mjs); and no
// function over 60 lines in the dev tools (DEV_FOLDERS, tests excepted: they have many lines over
// 120 characters, so only the function length is held).
// `--skip=<folder>/` leaves a folder out of the first two while it is being reworked elsewhere.
if (process.argv.includes('--check')) {
	const skip = process.argv.filter((a) => a.startsWith('--skip=')).map((a) => a.slice(7));
	const checked = product.filter((f) => !skip.some((folder) => f.startsWith(folder)));
	const long = checked.flatMap((f) =>
		readFileSync(join(ROOT, f), 'utf8')
			.split('\n')
			.flatMap((l, i) => (l.length > 120 ? [`${f}:${i + 1} (${l.length} characters)`] : [])),
	);
	const longFns = longFunctions(checked, 60);
	const longDevFns = longFunctions(devCode, 60);
	const unused = testOnlyExports(ROOT);
	if (unused.length)
		console.error(
			'exports under nodes/ or credentials/ that no file there imports (make them module-private; ' +
				`test through what the nodes use):\n  ${unused.join('\n  ')}`,
		);
	if (cycles.length)
		console.error(
			`import cycles in nodes/ or credentials/ (type imports included):\n  ${cycles.map((c) => c.join(' ↔ ')).join('\n  ')}`,
		);
	if (longDevFns.length)
		console.error(
			`functions over 60 lines in the dev tools (${DEV_FOLDERS.join(', ')}; split them by what each part does):\n  ${longDevFns.join('\n  ')}`,
		);
	if (long.length || longFns.length || unused.length || cycles.length || longDevFns.length) {
		if (long.length)
			console.error(`lines over 120 characters in nodes/ or credentials/:\n  ${long.join('\n  ')}`);
		if (longFns.length)
			console.error(
				`functions over 60 lines in nodes/ or credentials/:\n  ${longFns.join('\n  ')}`,
			);
		process.exit(1);
	}
}
