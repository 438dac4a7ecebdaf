// The package's calls from a node's entry (`execute`, `poll`, `webhook`, the webhook lifecycle
// methods) to n8n's HTTP helper, read from the TypeScript, nothing run. Every function of the
// package counts once on a path: declared functions, methods, and arrows or function expressions,
// synchronous or not. A call is followed to what it names (imports, `.call`/`.apply`, methods of
// the package's classes, a variable or field initialised with an arrow). A function passed as an
// argument is counted where it is called: inside the package function it was passed to (a
// parameter called, or handed on to a function outside the package such as `Array.from` or
// `Promise.all`; a property of an object passed, called as `list.readPage()`), or where it is
// passed when it goes straight to a function outside the package (`items.map(…)`). A function kept
// in a field by a constructor and called later is not followed. A call through a member of one of
// the package's interfaces (the router calling an operation module's `execute`) reaches every
// exported function of that name. A path ends at the function that calls the helper
// (`this.helpers.httpRequestWithAuthentication`, `httpRequest`, `request`, …).
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
const ENTRY_METHODS = ['execute', 'poll', 'webhook', 'trigger'];

/** Functions that have a body: the graph's nodes. */
const isFunction = (node) =>
	(ts.isFunctionDeclaration(node) ||
		ts.isMethodDeclaration(node) ||
		ts.isArrowFunction(node) ||
		ts.isFunctionExpression(node) ||
		ts.isConstructorDeclaration(node) ||
		ts.isGetAccessorDeclaration(node)) &&
	node.body !== undefined;

/** The expression a call names, without `.call` or `.apply`; and how many leading arguments are not passed on. */
function callee(call) {
	if (ts.isNewExpression(call)) return { target: call.expression, skip: 0 };
	const expression = call.expression;
	if (ts.isPropertyAccessExpression(expression) && ['call', 'apply'].includes(expression.name.text))
		return { target: expression.expression, skip: expression.name.text === 'call' ? 1 : Infinity };
	return { target: expression, skip: 0 };
}

const isHelperCall = (call, target) =>
	ts.isCallExpression(call) &&
	ts.isPropertyAccessExpression(target) &&
	HELPERS.has(target.name.text) &&
	ts.isPropertyAccessExpression(target.expression) &&
	target.expression.name.text === 'helpers';

/** A function's name as a reader finds it: `name`, `Class.method`, or where an arrow is written. */
function nameOf(fn) {
	const sf = fn.getSourceFile();
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
	const line = sf.getLineAndCharacterOfPosition(fn.getStart()).line + 1;
	return `(arrow in ${basename(sf.fileName)}:${line})`;
}

/** The graph over `files` (paths relative to `root`), answering path questions. */
export function callGraph(root, files) {
	return new CallGraph(root, files);
}

class CallGraph {
	constructor(root, files) {
		this.root = root;
		this.ours = new Set(files.map((file) => join(root, file)));
		// No module resolution: the package's files are all given, n8n's types are not needed.
		const program = ts.createProgram([...this.ours], {
			noEmit: true,
			noResolve: true,
			types: [],
			lib: ['lib.es2022.d.ts'],
			strict: true,
			target: ts.ScriptTarget.ES2022,
		});
		this.checker = program.getTypeChecker();
		this.sources = program.getSourceFiles().filter((sf) => this.ours.has(sf.fileName));
		this.ids = new Map();
		this.calls = new Map();
		this.exported = this.exportedFunctions();
	}

	fileOf(node) {
		return node.getSourceFile().fileName.slice(this.root.length).replace(/^\//, '');
	}

	/** Exported functions by name: what a call through an interface member reaches. */
	exportedFunctions() {
		const exported = new Map();
		for (const sf of this.sources) {
			const module = this.checker.getSymbolAtLocation(sf);
			for (const symbol of module ? this.checker.getExportsOfModule(module) : []) {
				const fn = this.functionOf(symbol.declarations?.[0]);
				if (!fn) continue;
				if (!exported.has(symbol.name)) exported.set(symbol.name, []);
				exported.get(symbol.name).push(fn);
			}
		}
		return exported;
	}

	/** The package function a declaration is, or holds as its initial value. */
	functionOf(declaration) {
		if (!declaration || !this.ours.has(declaration.getSourceFile().fileName)) return undefined;
		if (isFunction(declaration)) return declaration;
		const holds =
			ts.isVariableDeclaration(declaration) ||
			ts.isPropertyDeclaration(declaration) ||
			ts.isPropertyAssignment(declaration);
		return holds && declaration.initializer && isFunction(declaration.initializer)
			? declaration.initializer
			: undefined;
	}

	symbolOf(node) {
		const at = ts.isPropertyAccessExpression(node) ? node.name : node;
		const symbol = this.checker.getSymbolAtLocation(at);
		return symbol && symbol.flags & ts.SymbolFlags.Alias
			? this.checker.getAliasedSymbol(symbol)
			: symbol;
	}

	/** Bindings are keyed by a parameter, or by a parameter and a property of the object passed for it. */
	keyOf(parameter, property) {
		if (!this.ids.has(parameter)) this.ids.set(parameter, this.ids.size);
		const id = this.ids.get(parameter);
		return property === undefined ? `${id}` : `${id}.${property}`;
	}

	/**
	 * What an expression calls or passes, as the package's functions: a function written there, one
	 * named, a parameter (its bound values), or every exported function named after a member of one
	 * of the package's interfaces (`dispatched`).
	 */
	valuesOf(expression, bindings) {
		if (!expression) return [];
		if (ts.isParenthesizedExpression(expression) || ts.isAsExpression(expression))
			return this.valuesOf(expression.expression, bindings);
		if (isFunction(expression)) return [{ fn: expression }];
		if (!ts.isIdentifier(expression) && !ts.isPropertyAccessExpression(expression)) return [];
		const bound = this.boundProperty(expression, bindings);
		if (bound) return bound;
		const symbol = this.symbolOf(expression);
		const declaration = symbol?.declarations?.[0];
		if (!declaration) return [];
		if (ts.isParameter(declaration)) return bindings.get(this.keyOf(declaration)) ?? [];
		const fn = this.functionOf(declaration);
		if (fn) return [{ fn }];
		const member = ts.isPropertySignature(declaration) || ts.isMethodSignature(declaration);
		if (!member || !this.ours.has(declaration.getSourceFile().fileName)) return [];
		return (this.exported.get(symbol.name) ?? []).map((target) => ({
			fn: target,
			dispatched: true,
		}));
	}

	/** `list.readPage` where `list` is a parameter given an object holding that function. */
	boundProperty(expression, bindings) {
		if (!ts.isPropertyAccessExpression(expression) || !ts.isIdentifier(expression.expression))
			return undefined;
		const owner = this.symbolOf(expression.expression)?.declarations?.[0];
		if (!owner || !ts.isParameter(owner)) return undefined;
		return bindings.get(this.keyOf(owner, expression.name.text));
	}

	/** The functions an object literal holds, by property: `{ readPage: async (page) => … }`. */
	propertyValues(expression, bindings) {
		if (!ts.isObjectLiteralExpression(expression)) return [];
		const found = [];
		for (const property of expression.properties) {
			const name = property.name?.getText();
			let values = [];
			if (ts.isMethodDeclaration(property)) values = [{ fn: property }];
			else if (ts.isPropertyAssignment(property))
				values = this.valuesOf(property.initializer, bindings);
			else if (ts.isShorthandPropertyAssignment(property))
				values = this.valuesOf(property.name, bindings);
			if (name && values.length) found.push([name, values]);
		}
		return found;
	}

	/** The calls a function makes itself (not inside the functions it defines). */
	callsIn(fn) {
		if (this.calls.has(fn)) return this.calls.get(fn);
		const calls = [];
		const visit = (node) => {
			if (node !== fn && isFunction(node)) return;
			if (ts.isCallExpression(node) || ts.isNewExpression(node)) calls.push(node);
			ts.forEachChild(node, visit);
		};
		ts.forEachChild(fn, visit);
		this.calls.set(fn, calls);
		return calls;
	}

	/** What a call reaches in the package: the functions it names (a constructor for `new`). */
	targetsOf(call, target, bindings) {
		if (!ts.isNewExpression(call)) return this.valuesOf(target, bindings);
		const declaration = this.symbolOf(target)?.declarations?.[0];
		const constructor =
			declaration && ts.isClassLike(declaration)
				? declaration.members.find(ts.isConstructorDeclaration)
				: undefined;
		return constructor?.body ? [{ fn: constructor }] : [];
	}

	/** What each argument gives the parameter it is passed for: functions, and functions held by properties. */
	bindingsFor(to, args, bindings) {
		const bound = new Map();
		const parameters = (to.parameters ?? []).filter((p) => p.name.getText() !== 'this');
		args.forEach((arg, index) => {
			const parameter = parameters[index];
			if (!parameter) return;
			const values = this.valuesOf(arg, bindings);
			if (values.length) bound.set(this.keyOf(parameter), values);
			for (const [property, held] of this.propertyValues(arg, bindings))
				bound.set(this.keyOf(parameter, property), held);
		});
		return bound;
	}

	/** The steps one function takes: each function it reaches, with its parameters' bound values; and whether it calls the helper. */
	stepsOf(fn, bindings) {
		const steps = [];
		let requests = false;
		for (const call of this.callsIn(fn)) {
			const { target, skip } = callee(call);
			if (isHelperCall(call, target)) {
				requests = true;
				continue;
			}
			const args = [...(call.arguments ?? [])];
			const targets = this.targetsOf(call, target, bindings);
			if (targets.length === 0) {
				// Outside the package (Array.from, Promise.all, map): what it is handed runs here.
				for (const arg of args) {
					const held = this.propertyValues(arg, bindings).flatMap(([, values]) => values);
					for (const { fn: given } of [...this.valuesOf(arg, bindings), ...held])
						steps.push({ fn: given, bindings: new Map() });
				}
				continue;
			}
			const passed = Number.isFinite(skip) ? args.slice(skip) : [];
			for (const { fn: to, dispatched } of targets)
				steps.push({ fn: to, bindings: this.bindingsFor(to, passed, bindings), dispatched });
		}
		return { steps, requests };
	}

	/** The longest path of the package's functions from `fn` to one that calls the helper (undefined: none). */
	deepest(fn, bindings, search) {
		const memoable = bindings.size === 0;
		if (memoable && search.memo.has(fn)) return search.memo.get(fn);
		search.onPath.add(fn);
		const { steps, requests } = this.stepsOf(fn, bindings);
		let best = requests ? [fn] : undefined;
		for (const step of steps) {
			if (search.onPath.has(step.fn) || (step.dispatched && !search.keep(step.fn))) continue;
			const rest = this.deepest(step.fn, step.bindings, search);
			if (rest && (!best || rest.length + 1 > best.length)) best = [fn, ...rest];
		}
		search.onPath.delete(fn);
		if (memoable) search.memo.set(fn, best);
		return best;
	}

	/** A node class's entries: execute, poll, webhook, trigger, and each webhook lifecycle method. */
	entriesOf(file) {
		const sf = this.sources.find((source) => this.fileOf(source) === file);
		const entries = [];
		const visit = (node) => {
			if (ts.isClassDeclaration(node))
				for (const member of node.members) {
					const name = member.name?.getText(sf);
					if (ts.isMethodDeclaration(member) && ENTRY_METHODS.includes(name))
						entries.push({ name, fn: member });
					if (ts.isPropertyDeclaration(member) && name === 'webhookMethods')
						this.lifecycle(member.initializer, entries);
				}
			ts.forEachChild(node, visit);
		};
		if (sf) visit(sf);
		return entries;
	}

	lifecycle(object, entries, prefix = '') {
		if (!object || !ts.isObjectLiteralExpression(object)) return;
		for (const property of object.properties) {
			const name = property.name?.getText();
			const fn = ts.isMethodDeclaration(property) ? property : this.functionOf(property);
			if (fn) entries.push({ name: `${prefix}${name}`, fn });
			else if (ts.isPropertyAssignment(property))
				this.lifecycle(property.initializer, entries, `${name}.`);
		}
	}

	/**
	 * The deepest path from an entry, each step's name and file. A call through an interface member
	 * reaches only the files in `files` (those the node class imports); with `through`, only that
	 * file (one operation).
	 */
	pathFrom(entry, { files: within, through } = {}) {
		const keep = (fn) =>
			(!within || within.has(this.fileOf(fn))) && (!through || this.fileOf(fn) === through);
		const search = { keep, onPath: new Set(), memo: new Map() };
		const path = this.deepest(entry.fn, new Map(), search);
		return path?.map((fn) => ({ name: nameOf(fn), file: this.fileOf(fn) }));
	}
}
