/**
 * `npm run demo`: runs the example workflows on the built-in sandbox and prints a report (see
 * ./demo.mts). The recording and the voice prompt go to demo-output/, emptied first (or to the
 * folder DEMO_OUTPUT_DIR names, left as it is). Exit status 0 when every step passed, 1 otherwise.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// n8n-core keeps instance settings in N8N_USER_FOLDER: a throwaway one (removed at the end), not the user's ~/.n8n.
const userFolder = process.env.N8N_USER_FOLDER
	? undefined
	: mkdtempSync(join(tmpdir(), 'n8n-virtualnum-demo-'));
if (userFolder) process.env.N8N_USER_FOLDER = userFolder;
const exit = (code: number): never => {
	if (userFolder) rmSync(userFolder, { recursive: true, force: true });
	process.exit(code);
};

const custom = process.env.DEMO_OUTPUT_DIR;
const outputDir = custom ?? fileURLToPath(new URL('../../demo-output/', import.meta.url));
if (!custom) rmSync(outputDir, { recursive: true, force: true });

try {
	mkdirSync(outputDir, { recursive: true });
	const { runDemo } = await import('./demo.mts');
	const result = await runDemo({
		outputDir,
		outputLabel: custom ?? 'demo-output',
		print: (line) => console.log(line),
	});
	exit(result.ok ? 0 : 1);
} catch (error) {
	console.error(
		'The demo could not run:',
		error instanceof Error ? (error.stack ?? error.message) : error,
	);
	exit(1);
}
