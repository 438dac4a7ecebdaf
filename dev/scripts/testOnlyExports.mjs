// `node dev/scripts/testOnlyExports.mjs`: the exports under nodes/ and credentials/ that no file under
// nodes/ or credentials/ imports. Such an export is there only for tests (or for nothing): a test should
// go through what users use instead (the node, the trigger, a function the nodes call), so the list
// stays empty (`node dev/scripts/architecture.mjs --check`, part of `npm run lint`, fails otherwise).
//
// Entry points are not counted: the class of a `*.node.ts` or `*.credentials.ts` file, which n8n loads
// by its file (package.json's "n8n" section).
import { readFileSync, existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const PRODUCT = /^(nodes|credentials)\/.*\.ts$/;
const ENTRY = /\.(node|credentials)\.ts$/;
/**
 * A module passed on whole (`import * as send`, then `{ send }`) is read by the router
 * (nodes/shared/router.ts) through these fields only: an operation module's (`OperationModule`) and a
 * resource's (`Resource`). Anything else it exports is not used by passing it on.
 */
const MODULE_SHAPES = [
	[/\.operation\.ts$/, 'OperationModule'],
	[/\/actions\/[^/]+\/index\.ts$/, 'Resource'],
];
/** The property names of an interface of the router, read from its source (so they never drift). */
function routerFields(root, name) {
	const source = readFileSync(join(root, 'nodes/shared/router.ts'), 'utf8');
	const body = new RegExp(`interface ${name} \\{([\\s\\S]*?)\\n\\}`).exec(source)?.[1] ?? '';
	return [...body.matchAll(/^\t(\w+)\??:/gm)].map((m) => m[1]);
}
function shapeOf(root, file) {
	const shape = MODULE_SHAPES.find(([re]) => re.test(file))?.[1];
	return shape ? routerFields(root, shape) : ['*'];
}

function resolveLocal(root, fromFile, spec) {
	if (!spec.startsWith('.')) return undefined;
	const base = resolve(dirname(join(root, fromFile)), spec);
	const hit = [`${base}.ts`, join(base, 'index.ts')].find((c) => existsSync(c));
	return hit && relative(root, hit);
}

const isExported = (node) =>
	ts.canHaveModifiers(node) &&
	(ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** The names a file exports itself (declarations and `export { a, b }`), and the files it re-exports from. */
function exportsOf(sf) {
	const names = [];
	for (const st of sf.statements) {
		if (ts.isExportDeclaration(st)) {
			if (!st.moduleSpecifier && st.exportClause && ts.isNamedExports(st.exportClause))
				for (const el of st.exportClause.elements) names.push(el.name.text);
			continue;
		}
		if (!isExported(st)) continue;
		if (ts.isVariableStatement(st))
			for (const d of st.declarationList.declarations)
				if (ts.isIdentifier(d.name)) names.push(d.name.text);
		if (st.name && ts.isIdentifier(st.name)) names.push(st.name.text);
	}
	return names;
}

/** `[file, name]` pairs a file imports from local files; `name` '*' when it uses a namespace whole. */
function importsOf(root, file, sf) {
	const used = [];
	const text = sf.getFullText();
	for (const st of sf.statements) {
		const spec =
			(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) &&
			st.moduleSpecifier &&
			ts.isStringLiteral(st.moduleSpecifier)
				? st.moduleSpecifier.text
				: undefined;
		const target = spec && resolveLocal(root, file, spec);
		if (!target) continue;
		if (ts.isExportDeclaration(st)) {
			if (!st.exportClause) used.push([target, '*']);
			else if (ts.isNamedExports(st.exportClause))
				for (const el of st.exportClause.elements)
					used.push([target, (el.propertyName ?? el.name).text]);
			else used.push([target, '*']);
			continue;
		}
		const clause = st.importClause;
		if (!clause) continue;
		if (clause.name) used.push([target, 'default']);
		const bindings = clause.namedBindings;
		if (bindings && ts.isNamedImports(bindings))
			for (const el of bindings.elements) used.push([target, (el.propertyName ?? el.name).text]);
		if (bindings && ts.isNamespaceImport(bindings)) {
			// `import * as op`: the members read as `op.name`; the namespace passed on whole uses all of them.
			const ns = bindings.name.text;
			const members = [...text.matchAll(new RegExp(`\\b${ns}\\.([A-Za-z_$][\\w$]*)`, 'g'))];
			for (const m of members) used.push([target, m[1]]);
			const bare = [...text.matchAll(new RegExp(`\\b${ns}\\b(?![.\\w$])`, 'g'))].length;
			if (bare > 1) for (const name of shapeOf(root, target)) used.push([target, name]);
		}
	}
	return used;
}

/** The exports under nodes/ and credentials/ that no file there imports, as `file: name`. */
export function testOnlyExports(root) {
	const files = execSync('git ls-files', { cwd: root, encoding: 'utf8' })
		.trim()
		.split('\n')
		.filter((f) => PRODUCT.test(f) && existsSync(join(root, f)));
	const parsed = new Map(
		files.map((f) => [
			f,
			ts.createSourceFile(f, readFileSync(join(root, f), 'utf8'), ts.ScriptTarget.Latest, true),
		]),
	);
	const used = new Set();
	for (const [file, sf] of parsed)
		for (const [target, name] of importsOf(root, file, sf)) used.add(`${target}#${name}`);
	const unused = [];
	for (const [file, sf] of parsed) {
		if (used.has(`${file}#*`)) continue;
		for (const name of exportsOf(sf)) {
			if (ENTRY.test(file)) continue;
			if (!used.has(`${file}#${name}`)) unused.push(`${file}: ${name}`);
		}
	}
	return unused.sort();
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const root = resolve(new URL('../..', import.meta.url).pathname);
	const list = testOnlyExports(root);
	console.log(list.length ? list.join('\n') : 'none');
	console.log(`${list.length} exports under nodes/ and credentials/ that nothing there imports`);
}
