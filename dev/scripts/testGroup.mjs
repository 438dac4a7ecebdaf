// One process running several test files (dev/scripts/run-tests.mjs writes the entry that calls
// `runFiles`). Each file is imported inside a `describe` named after it, one file after the other:
// the tests, suites and hooks it declares at its top level (`sandboxPerFile()`, `before`, …) belong
// to that `describe`, so they run around its own tests only, as when the file had the process to
// itself; and the next file is imported only once this one's tests and hooks are done. What a file
// sets in the environment (`process.env.TZ`, …) is undone after it. What the files share is what
// they only read: the loaded modules (n8n-core, the built package, the harness).
import { describe } from 'node:test';
import { relative } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Puts the environment back as it was (a variable a file added is removed, one it changed restored). */
function restore(saved) {
	for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
	for (const [name, value] of Object.entries(saved))
		if (process.env[name] !== value) process.env[name] = value;
}

export async function runFiles(root, files, timeout) {
	for (const file of files) {
		const saved = { ...process.env };
		await describe(relative(root, file), { timeout }, async () => {
			await import(pathToFileURL(file).href);
		});
		restore(saved);
	}
}
