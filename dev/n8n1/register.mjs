/**
 * Makes this project's own code (tests, harness, sandbox, and the built package in dist/) load the
 * n8n 1.x engine installed in dev/n8n1/node_modules instead of the 2.x devDependencies, as n8n 1.x would
 * give it to a community package. Used as `node --import ./dev/n8n1/register.mjs …`; dev/scripts/test-n8n1.mjs
 * sets it through NODE_OPTIONS, so every test process gets it.
 *
 * Both module systems are redirected, so both see one instance of each package: ESM imports (the .mts
 * tests, through a resolve hook) and CommonJS require (the compiled package's require('n8n-workflow'),
 * through Module._resolveFilename). Packages inside any node_modules keep their own resolution.
 */
import Module from 'node:module';
import { join } from 'node:path';

import { ENGINE_DIR, isProjectFile, isRedirected } from './engine.mjs';

const engineParent = new Module(join(ENGINE_DIR, 'index.js'));
engineParent.filename = engineParent.id;
engineParent.paths = Module._nodeModulePaths(ENGINE_DIR);

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
	const from = isRedirected(request) && isProjectFile(parent?.filename) ? engineParent : parent;
	return resolveFilename.call(this, request, from, ...rest);
};

Module.register('./hooks.mjs', import.meta.url);
