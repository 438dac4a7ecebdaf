/**
 * Whose memory is it: sums the sampled bytes of `.heapprofile` files (BENCH_HEAP_PROFILE, see
 * dev/bench/measure.mts) by the function that allocated them, with the owners of profile.mts.
 *   npx tsx dev/bench/heapProfile.mts <file.heapprofile>… [--top 15]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface HeapNode {
	callFrame: { functionName: string; url: string; lineNumber: number };
	selfSize: number;
	children: HeapNode[];
}

const MB = 1024 * 1024;

/** Bytes by allocating function (`name file:line`), largest first. */
export function bytesByFunction(head: HeapNode): Array<[string, number]> {
	const sums = new Map<string, number>();
	const visit = (node: HeapNode) => {
		const { functionName, url, lineNumber } = node.callFrame;
		const where = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|dist)\//, '')}:${lineNumber + 1}`;
		if (node.selfSize > 0) sums.set(where, (sums.get(where) ?? 0) + node.selfSize);
		for (const child of node.children) visit(child);
	};
	visit(head);
	return [...sums].sort((a, b) => b[1] - a[1]);
}

const { values, positionals } = parseArgs({
	allowPositionals: true,
	options: { top: { type: 'string' } },
});
for (const file of positionals) {
	const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };
	const rows = bytesByFunction(head);
	const total = rows.reduce((sum, [, bytes]) => sum + bytes, 0);
	console.log(`\n${file}: ${(total / MB).toFixed(1)} MB sampled`);
	for (const [where, bytes] of rows.slice(0, Number(values.top ?? 15)))
		console.log(`  ${(bytes / MB).toFixed(2).padStart(8)} MB  ${where}`);
}
