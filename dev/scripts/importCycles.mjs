// Import cycles among the published code (nodes/ and credentials/): every local import counts, type
// imports and re-exports included, because a reader following one file into another must not come
// back where they started. `node dev/scripts/importCycles.mjs` lists them; architecture.mjs reports
// the count and its `--check` fails on any.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The local files `file` imports, whatever the kind of import. */
function importsOf(root, file) {
	const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
	return importedFiles
		.map(({ fileName }) => fileName)
		.filter((name) => name.startsWith('.'))
		.map((name) => resolve(root, dirname(file), name))
		.map((base) =>
			[`${base}.ts`, join(base, 'index.ts'), base].find((c) => c.endsWith('.ts') && existsSync(c)),
		)
		.filter(Boolean)
		.map((hit) => relative(root, hit));
}

/** Each cycle as its files in import order (Tarjan's strongly connected components of two or more files, or one importing itself). */
export function importCycles(root, files) {
	const graph = new Map(
		files.map((file) => [file, importsOf(root, file).filter((f) => files.includes(f))]),
	);
	const index = new Map();
	const low = new Map();
	const stack = [];
	const cycles = [];
	let counter = 0;
	const visit = (file) => {
		index.set(file, counter);
		low.set(file, counter++);
		stack.push(file);
		for (const next of graph.get(file)) {
			if (!index.has(next)) {
				visit(next);
				low.set(file, Math.min(low.get(file), low.get(next)));
			} else if (stack.includes(next)) low.set(file, Math.min(low.get(file), index.get(next)));
		}
		if (low.get(file) !== index.get(file)) return;
		const component = stack.splice(stack.indexOf(file));
		if (component.length > 1 || graph.get(file).includes(file)) cycles.push(component.sort());
	};
	for (const file of graph.keys()) if (!index.has(file)) visit(file);
	return cycles;
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const root = resolve(new URL('../..', import.meta.url).pathname);
	const { execSync } = await import('node:child_process');
	const files = execSync('git ls-files nodes credentials', { cwd: root, encoding: 'utf8' })
		.split('\n')
		.filter((f) => f.endsWith('.ts') && existsSync(join(root, f)));
	const cycles = importCycles(root, files);
	for (const cycle of cycles) console.log(cycle.join(' ↔ '));
	console.log(`${cycles.length} import cycle${cycles.length === 1 ? '' : 's'}`);
}
