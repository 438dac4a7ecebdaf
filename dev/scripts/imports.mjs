// The local imports of the published code (nodes/ and credentials/): every local import counts, type
// imports and re-exports included, because a reader following one file into another goes where
// it leads. `node dev/scripts/imports.mjs` lists the import cycles; architecture.mjs reports them
// (its `--check` fails on any), the import levels and what a node class reaches.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/** The local files `file` imports, whatever the kind of import. */
export function importsOf(root, file) {
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

/** The import graph of `files`, each file's imports kept to those among `files`. */
export function importGraph(root, files) {
	return new Map(
		files.map((file) => [file, importsOf(root, file).filter((f) => files.includes(f))]),
	);
}

/** Each cycle as its files in import order (Tarjan's strongly connected components of two or more files, or one importing itself). */
export function importCycles(root, files) {
	const graph = importGraph(root, files);
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

/**
 * The longest chain of imports from `start` in `graph` (a file importing one that imports another…),
 * as its files: the import levels a reader goes down from there. A cycle is not gone round twice.
 */
export function deepestImports(graph, start, onPath = new Set()) {
	onPath.add(start);
	let best = [];
	for (const next of graph.get(start) ?? [])
		if (!onPath.has(next)) {
			const chain = deepestImports(graph, next, onPath);
			if (chain.length > best.length) best = chain;
		}
	onPath.delete(start);
	return [start, ...best];
}

/** Every file reachable from `start` by its imports, itself included. */
export function reachable(graph, start) {
	const seen = new Set();
	const stack = [start];
	while (stack.length) {
		const file = stack.pop();
		if (seen.has(file)) continue;
		seen.add(file);
		stack.push(...(graph.get(file) ?? []));
	}
	return seen;
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
