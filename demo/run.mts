/**
 * `npm run demo`: runs the example workflows on the built-in sandbox and prints a report (see
 * ./demo.mts). The recording and the voice prompt go to demo-output/, emptied first. Exit
 * status 0 when every step passed, 1 otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// n8n-core keeps instance settings in N8N_USER_FOLDER: a throwaway one, not the user's ~/.n8n.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'n8n-virtualnum-demo-'));

const outputDir = fileURLToPath(new URL('../demo-output/', import.meta.url));
rmSync(outputDir, { recursive: true, force: true });

try {
	const { runDemo } = await import('./demo.mts');
	const result = await runDemo({ outputDir, outputLabel: 'demo-output', print: (line) => console.log(line) });
	process.exit(result.ok ? 0 : 1);
} catch (error) {
	console.error('The demo could not run:', error instanceof Error ? (error.stack ?? error.message) : error);
	process.exit(1);
}
