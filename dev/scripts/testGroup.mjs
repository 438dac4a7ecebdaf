// A worker process of dev/scripts/run-tests.mjs (which writes the entry that calls `runFiles`): it
// takes the next file of the list that no other worker has taken (a claim file, created only once),
// imports it inside a `describe` named after it, and takes the next once that file is done. The
// tests, suites and hooks a file declares at its top level (`sandboxPerFile()`, `before`, …) belong
// to its `describe`, so they run around its own tests only, as when the file had the process to
// itself. What a file sets in the environment (`process.env.TZ`, …) is undone after it, and so is
// luxon's default zone. What the files share is what they only read: the loaded modules (n8n-core,
// the built package, the harness).
import { openSync, closeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';

/** Puts the environment back as it was (a variable a file added is removed, one it changed restored). */
function restore(saved) {
	for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
	for (const [name, value] of Object.entries(saved))
		if (process.env[name] !== value) process.env[name] = value;
}

/**
 * luxon's settings, of each of its two builds (imported by the harness and the tests, required by
 * n8n-core and the built nodes): n8n-workflow sets `Settings.defaultZone` to the workflow's time zone
 * whenever it evaluates an expression (WorkflowDataProxy), so a file that ran a workflow would leave
 * the next file's `DateTime.now()` in that zone instead of the process's.
 */
const luxons = [(await import('luxon')).Settings, createRequire(import.meta.url)('luxon').Settings];

/** Whether this worker is the first to take the file at `index` (the claim file is created once). */
function claim(claims, index) {
	try {
		closeSync(openSync(join(claims, String(index)), 'wx'));
		return true;
	} catch (error) {
		if (error.code === 'EEXIST') return false;
		throw error;
	}
}

export async function runFiles({ root, files, claims, timeout }) {
	for (const [index, file] of files.entries()) {
		if (!claim(claims, index)) continue;
		const saved = { ...process.env };
		const zones = luxons.map((settings) => settings.defaultZone);
		await describe(relative(root, file), { timeout }, async () => {
			await import(pathToFileURL(file).href);
		});
		restore(saved);
		luxons.forEach((settings, at) => (settings.defaultZone = zones[at]));
	}
}
