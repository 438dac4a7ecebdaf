// `node dev/scripts/architecture.mjs`: the counts dev/docs/architecture.md tracks, measured from the
// code: files and lines a reader crosses following Bulk SMS → Send and the trigger's lifecycle (the
// local imports reachable from the node class, other operations left out), top-level entries, long
// lines, long functions. `--json` prints them as JSON.
import { readFileSync, existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

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

/** Files reachable from `start`, not entering other operations or resources than `keep`'s, nor editor methods. */
function path(start, keep) {
	const seen = new Set();
	const stack = [resolve(ROOT, start)];
	while (stack.length) {
		const file = stack.pop();
		if (seen.has(file)) continue;
		seen.add(file);
		for (const next of localImports(file)) {
			const rel = relative(ROOT, next);
			if (/\.operation\.ts$/.test(rel) && !(keep && rel.endsWith(keep))) continue;
			if (keep && /\/actions\/[^/]+\//.test(rel) && !rel.startsWith(dirname(keep) + '/')) continue;
			if (/\/methods\//.test(rel)) continue;
			stack.push(next);
		}
	}
	const files = [...seen].map((f) => relative(ROOT, f)).sort();
	const lines = files.reduce(
		(sum, f) => sum + readFileSync(join(ROOT, f), 'utf8').split('\n').length,
		0,
	);
	return { files: files.length, lines, list: files };
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

const files = tracked();
const product = files.filter((f) => /^(nodes|credentials)\/.*\.ts$/.test(f));
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
const triggerFolder = 'nodes/VirtualNumberTrigger/';
const trigger = path(`${triggerFolder}VirtualNumberTrigger.node.ts`);
const sendFolder = dirname(sendOperation) + '/';
const sendOwn = send.list.filter((f) => f.startsWith(sendFolder));
const topLevel = new Set(files.map((f) => f.split('/')[0]));
const report = {
	'Bulk SMS → Send, end to end': `${send.files} files, ${send.lines} lines`,
	'Bulk SMS → Send, its own files': `${sendOwn.length} files, ${sendOwn.reduce((s, f) => s + readFileSync(join(ROOT, f), 'utf8').split('\n').length, 0)} lines`,
	'Trigger, activation → callback → deactivation': `${trigger.files} files, ${trigger.lines} lines`,
	'Trigger node folder': `${files.filter((f) => f.startsWith(triggerFolder)).length} files`,
	'Top-level entries': `${topLevel.size} (${[...topLevel].filter((n) => statSync(join(ROOT, n)).isDirectory()).length} folders)`,
	'Lines over 120 characters, nodes/ and credentials/': `${over(product).length}`,
	'Lines over 120 characters, all code': `${over(code).length} (longest ${Math.max(0, ...over(code))})`,
	'Functions over 60 lines, nodes/ and credentials/': `${longFunctions(product, 60).length}`,
};
if (process.argv.includes('--check')) {
	// printed below only when it fails
} else if (process.argv.includes('--json'))
	console.log(JSON.stringify({ ...report, send: send.list, trigger: trigger.list }, null, 2));
else {
	for (const [k, v] of Object.entries(report)) console.log(`${k.padEnd(52)} ${v}`);
	if (process.argv.includes('--files'))
		console.log(
			'\nSend:\n  ' + send.list.join('\n  ') + '\nTrigger:\n  ' + trigger.list.join('\n  '),
		);
}

// `--check` (part of `npm run lint`): no line of the published code over 120 characters.
if (process.argv.includes('--check')) {
	const long = product.flatMap((f) =>
		readFileSync(join(ROOT, f), 'utf8')
			.split('\n')
			.flatMap((l, i) => (l.length > 120 ? [`${f}:${i + 1} (${l.length} characters)`] : [])),
	);
	if (long.length) {
		console.error(`lines over 120 characters in nodes/ or credentials/:\n  ${long.join('\n  ')}`);
		process.exit(1);
	}
}
