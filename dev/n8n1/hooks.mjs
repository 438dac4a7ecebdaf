/** ESM resolve hook of the 1.x run (registered by register.mjs): see register.mjs. */
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { ENGINE_DIR, isProjectFile, isRedirected } from './engine.mjs';

const engineParentUrl = pathToFileURL(join(ENGINE_DIR, 'index.js')).href;

export async function resolve(specifier, context, nextResolve) {
	if (
		isRedirected(specifier) &&
		context.parentURL?.startsWith('file:') &&
		isProjectFile(fileURLToPath(context.parentURL))
	) {
		return await nextResolve(specifier, { ...context, parentURL: engineParentUrl });
	}
	return await nextResolve(specifier, context);
}
