// The package's calls from a node's entry (`execute`, `poll`, `webhook`, the webhook lifecycle
// methods) to n8n's HTTP helper, read from the TypeScript, nothing run. Every function of the
// package counts once on a path: declared functions, methods, and arrows or function expressions,
// synchronous or not. A call is followed to what it names (imports, `.call`/`.apply`, methods of
// the package's classes, a variable or field holding an arrow). A function passed as an argument is
// counted where it is called: inside the package function it was passed to (a parameter called, or
// handed on to a function outside the package such as `Array.from` or `Promise.all`), or where it is
// passed when it goes straight to a function outside the package (`items.map(…)`). A call through a
// member of one of the package's interfaces (the router calling an operation module's `execute`)
// reaches every exported function of that name. A path ends at the function that calls the helper
// (`this.helpers.httpRequestWithAuthentication`, `httpRequest`, `request`, …).
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import ts from 'typescript';

const HELPERS = new Set([
	'httpRequest',
	'httpRequestWithAuthentication',
	'request',
	'requestWithAuthentication',
	'requestOAuth2',
	'requestOAuth1',
]);

/** The expression a call names, without `.call`, `.apply` or `.bind`; and how many leading arguments are not passed on. */
function callee(call) {
	const expression = call.expression;
	if (ts.isPropertyAccessExpression(expression) && ['call', 'apply'].includes(expression.name.text))
		return { target: expression.expression, skip: expression.name.text === 'call' ? 1 : Infinity };
	return { target: expression, skip: 0 };
}

function isHelperCall(target) {
	return (
		ts.isPropertyAccessExpression(target) &&
		HELPERS.has(target.name.text) &&
		ts.isPropertyAccessExpression(target.expression) &&
		target.expression.name.text === 'helpers'
	);
}

/** Builds the graph over `files` (paths relative to `root`) and answers path questions on it. */
export function callGraph(root, files) {
	const program = ts.createProgram(
		files.map((file) => join(root, file)),
		{
			noEmit: true,
			noResolve: true,
			types: [],
			lib: ['lib.es2022.d.ts'],
			strict: true,
			target: ts.ScriptTarget.ES2022,
		},
	);
	const checker = program.getTypeChecker();
	const ours = new Set(files.map((file) => join(root, file)));
	const sources = program.getSourceFiles().filter((sf) => ours.has(sf.fileName));
	const relativeName = (sf) => sf.fileName.slice(root.length).replace(/^\//, '');

	/** Functions that have a body: the graph's nodes. */
	const isFunction = (node) =>
		(ts.isFunctionDeclaration(node) ||
			ts.isMethodDeclaration(node) ||
			ts.isArrowFunction(node) ||
			ts.isFunctionExpression(node) ||
			ts.isConstructorDeclaration(node) ||
			ts.isGetAccessorDeclaration(node)) &&
		node.body !== undefined;

	function nameOf(fn) {
		const sf = fn.getSourceFile();
		const where = `${basename(sf.fileName)}:${sf.getLineAndCharacterOfPosition(fn.getStart()).line + 1}`;
		if (ts.isFunctionDeclaration(fn) && fn.name) return fn.name.text;
		if ((ts.isMethodDeclaration(fn) || ts.isGetAccessorDeclaration(fn)) && fn.name) {
			const owner = fn.parent;
			const method = fn.name.getText(sf);
			return ts.isClassLike(owner) && owner.name ? `${owner.name.text}.${method}` : method;
		}
		if (ts.isConstructorDeclaration(fn)) return `new ${fn.parent.name?.text ?? '(class)'}`;
		const holder = fn.parent;
		if ((ts.isVariableDeclaration(holder) || ts.isPropertyDeclaration(holder)) && holder.name)
			return holder.name.getText(sf);
		if (ts.isPropertyAssignment(holder)) return holder.name.getText(sf);
		return `(arrow in ${where})`;
	}

	/** The package function a declaration is or holds. */
	function functionOfDeclaration(declaration) {
		if (!declaration || !ours.has(declaration.getSourceFile().fileName)) return undefined;
		if (isFunction(declaration)) return declaration;
		const init = declaration.initializer;
		if (
			(ts.isVariableDeclaration(declaration) ||
				ts.isPropertyDeclaration(declaration) ||
				ts.isPropertyAssignment(declaration)) &&
			init &&
			isFunction(init)
		)
			return init;
		return undefined;
	}

	function symbolOf(node) {
		let symbol = checker.getSymbolAtLocation(
			ts.isPropertyAccessExpression(node) ? node.name : node,
		);
		if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
		return symbol;
	}

	/** Bindings are keyed by a parameter, or by a parameter and a property of the object passed for it. */
	const ids = new Map();
	const keyOf = (parameter, property) => {
		if (!ids.has(parameter)) ids.set(parameter, ids.size);
		return property === undefined ? `${ids.get(parameter)}` : `${ids.get(parameter)}.${property}`;
	};

	/** Exported functions by name: what a call through an interface member reaches. */
	const exported = new Map();
	for (const sf of sources) {
		const module = checker.getSymbolAtLocation(sf);
		for (const symbol of module ? checker.getExportsOfModule(module) : []) {
			const fn = functionOfDeclaration(symbol.declarations?.[0]);
			if (!fn) continue;
			if (!exported.has(symbol.name)) exported.set(symbol.name, []);
			exported.get(symbol.name).push(fn);
		}
	}

	/**
	 * What an expression calls or passes, as the package's functions: a function written there, one
	 * named, a parameter (its bound values), or every exported function named after an interface member.
	 */
	function valuesOf(expression, bindings) {
		if (!expression) return [];
		if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression))
			return valuesOf(expression.expression, bindings);
		if (isFunction(expression)) return [{ fn: expression }];
		if (!ts.isIdentifier(expression) && !ts.isPropertyAccessExpression(expression)) return [];
		if (ts.isPropertyAccessExpression(expression) && ts.isIdentifier(expression.expression)) {
			const owner = symbolOf(expression.expression)?.declarations?.[0];
			const bound =
				owner && ts.isParameter(owner) && bindings.get(keyOf(owner, expression.name.text));
			if (bound) return bound;
		}
		const symbol = symbolOf(expression);
		const declaration = symbol?.declarations?.[0];
		if (!declaration) return [];
		if (ts.isParameter(declaration)) return bindings.get(keyOf(declaration)) ?? [];
		const fn = functionOfDeclaration(declaration);
		if (fn) return [{ fn }];
		const inPackageType =
			(ts.isPropertySignature(declaration) || ts.isMethodSignature(declaration)) &&
			ours.has(declaration.getSourceFile().fileName);
		if (inPackageType)
			return (exported.get(symbol.name) ?? []).map((target) => ({ fn: target, dispatched: true }));
		return [];
	}

	/** The functions an object literal holds, by property: `{ readPage: async (page) => … }`. */
	function propertyValues(expression, bindings) {
		if (!ts.isObjectLiteralExpression(expression)) return [];
		const found = [];
		for (const property of expression.properties) {
			const name = property.name?.getText();
			const values = ts.isMethodDeclaration(property)
				? [{ fn: property }]
				: ts.isPropertyAssignment(property)
					? valuesOf(property.initializer, bindings)
					: ts.isShorthandPropertyAssignment(property)
						? valuesOf(property.name, bindings)
						: [];
			if (name && values.length) found.push([name, values]);
		}
		return found;
	}

	/** The calls a function makes itself (not inside the functions it defines). */
	const callsCache = new Map();
	function callsIn(fn) {
		if (callsCache.has(fn)) return callsCache.get(fn);
		const calls = [];
		const visit = (node) => {
			if (node !== fn && isFunction(node)) return;
			if (ts.isCallExpression(node) || ts.isNewExpression(node)) calls.push(node);
			ts.forEachChild(node, visit);
		};
		ts.forEachChild(fn, visit);
		callsCache.set(fn, calls);
		return calls;
	}

	/** The steps one function takes: each callee with the values its parameters are bound to; and whether it calls the helper. */
	function stepsOf(fn, bindings) {
		const steps = [];
		let requests = false;
		for (const call of callsIn(fn)) {
			const { target, skip } = ts.isNewExpression(call)
				? { target: call.expression, skip: 0 }
				: callee(call);
			if (ts.isCallExpression(call) && isHelperCall(target)) {
				requests = true;
				continue;
			}
			let targets = valuesOf(target, bindings);
			if (ts.isNewExpression(call)) {
				const declaration = symbolOf(target)?.declarations?.[0];
				const constructor =
					declaration && ts.isClassLike(declaration)
						? declaration.members.find(ts.isConstructorDeclaration)
						: undefined;
				targets = constructor?.body ? [{ fn: constructor }] : [];
			}
			const args = [...(call.arguments ?? [])];
			if (targets.length === 0) {
				// Outside the package (Array.from, Promise.all, map): what it is handed runs here.
				for (const arg of args)
					for (const value of [
						...valuesOf(arg, bindings),
						...propertyValues(arg, bindings).flatMap(([, v]) => v),
					])
						steps.push({ fn: value.fn, bindings: new Map() });
				continue;
			}
			for (const { fn: to, dispatched } of targets) {
				const bound = new Map();
				args.slice(Number.isFinite(skip) ? skip : args.length).forEach((arg, index) => {
					const parameter = (to.parameters ?? []).filter((p) => p.name.getText() !== 'this')[index];
					if (!parameter) return;
					const values = valuesOf(arg, bindings);
					if (values.length) bound.set(keyOf(parameter), values);
					for (const [property, propertyValues_] of propertyValues(arg, bindings))
						bound.set(keyOf(parameter, property), propertyValues_);
				});
				steps.push({ fn: to, bindings: bound, dispatched });
			}
		}
		return { steps, requests };
	}

	/** The longest path of the package's functions from `fn` to one that calls the helper (undefined: none). */
	function deepest(
		fn,
		bindings = new Map(),
		onPath = new Set(),
		memo = new Map(),
		keep = () => true,
	) {
		const memoable = bindings.size === 0;
		if (memoable && memo.has(fn)) return memo.get(fn);
		onPath.add(fn);
		const { steps, requests } = stepsOf(fn, bindings);
		let best = requests ? [fn] : undefined;
		for (const step of steps) {
			if (onPath.has(step.fn) || (step.dispatched && !keep(step.fn))) continue;
			const rest = deepest(step.fn, step.bindings, onPath, memo, keep);
			if (rest && (!best || rest.length + 1 > best.length)) best = [fn, ...rest];
		}
		onPath.delete(fn);
		if (memoable) memo.set(fn, best);
		return best;
	}

	const fileOf = (fn) => relativeName(fn.getSourceFile());

	/** A node class's entries: execute, poll, webhook, trigger, and each webhook lifecycle method. */
	function entriesOf(file) {
		const sf = sources.find((source) => relativeName(source) === file);
		const entries = [];
		const visit = (node) => {
			if (ts.isClassDeclaration(node))
				for (const member of node.members) {
					const name = member.name?.getText(sf);
					if (
						ts.isMethodDeclaration(member) &&
						['execute', 'poll', 'webhook', 'trigger'].includes(name)
					)
						entries.push({ name, fn: member });
					if (ts.isPropertyDeclaration(member) && name === 'webhookMethods')
						collectLifecycle(member.initializer, entries);
				}
			ts.forEachChild(node, visit);
		};
		if (sf) visit(sf);
		return entries;
	}

	function collectLifecycle(object, entries, prefix = '') {
		if (!object || !ts.isObjectLiteralExpression(object)) return;
		for (const property of object.properties) {
			const name = property.name?.getText();
			const fn = ts.isMethodDeclaration(property) ? property : functionOfDeclaration(property);
			if (fn) entries.push({ name: `${prefix}${name}`, fn });
			else if (ts.isPropertyAssignment(property))
				collectLifecycle(property.initializer, entries, `${name}.`);
		}
	}

	/**
	 * The deepest path from an entry. A call through an interface member reaches only the files in
	 * `files` (those the node class imports); with `through`, only that file (one operation).
	 */
	function pathFrom(entry, { files: within, through } = {}) {
		const keep = (fn) =>
			(!within || within.has(fileOf(fn))) && (!through || fileOf(fn) === through);
		const path = deepest(entry.fn, new Map(), new Set(), new Map(), keep);
		return path?.map((fn) => ({ name: nameOf(fn), file: fileOf(fn) }));
	}

	return { entriesOf, pathFrom };
}

/** The lines of a file (every line, comments included). */
export const linesOf = (path) => readFileSync(path, 'utf8').split('\n').length;
