/**
 * Nothing the service sends can block n8n's event loop: every reader of the service's text (the
 * answer decoder, XML status, excerpts, refusal texts, masking, a whole virtual number answer)
 * is timed on hostile inputs of 10 KB, 100 KB and 1 MB. Linear code takes about 10 times longer
 * for 10 times the input (up to 35 times measured at 1 MB, where strings outgrow the caches); a
 * quadratic reader takes 100 times. The test fails when 1 MB takes more than 60 times what 100 KB
 * took, or more than 500 ms at all: ratios of the process's own CPU time, so a busy machine does
 * not fail it. FIGURES=1 prints the timings.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { INode } from 'n8n-workflow';

import { maskSecrets } from '../../../nodes/shared/masking.ts';
import {
	decodeAnswer,
	excerpt,
	unauthorizedFailure,
	type FailureContext,
} from '../../../nodes/shared/transport/http.ts';
import { readVirtualnumAnswer } from '../../../nodes/shared/transport/virtualnumApi.ts';

const node = {
	id: '1',
	name: 'N',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
} as INode;
const context: FailureContext = {
	node,
	serviceLabel: 'Virtual Number',
	operation: 'get_virtualnum',
};
const TOKEN = 'tok-1234567890';

const fill = (unit: string, bytes: number) =>
	unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

/** Hostile texts: each the worst case of some pattern a careless reader would use. */
const HOSTILE: Record<string, (bytes: number) => string> = {
	'<': (bytes) => fill('<', bytes),
	'<status<code': (bytes) => `<?xml version="1.0"?>${fill('<status <code <description ', bytes)}`,
	'unclosed tags': (bytes) => fill('<a b="', bytes),
	'secret=': (bytes) => fill('secret=', bytes),
	'=': (bytes) => fill('=', bytes),
	'name chars': (bytes) => `${fill('secretsecret', bytes)}=x`,
	'%3D': (bytes) => fill('token%3D%25', bytes),
	'https://a:': (bytes) => fill('https://a:', bytes),
	'Token ': (bytes) => `Token ${fill(' ', bytes)}`,
	'the token': (bytes) => fill(TOKEN.slice(0, 7), bytes),
	description: (bytes) =>
		JSON.stringify({
			service: 'get_virtualnum',
			status: { code: 200, description: 'ok' },
			result: [{ virtualnum: '1', description: fill('x secret=a', bytes) }],
		}),
};

const READERS: Record<string, (text: string) => unknown> = {
	decodeAnswer: (text) => decodeAnswer(text),
	excerpt: (text) => excerpt(text),
	refusal: (text) => unauthorizedFailure(context, { kind: 'text', text }),
	maskSecrets: (text) => maskSecrets(text, [TOKEN, 'a&b%2Fc']),
	readVirtualnumAnswer: (text) => {
		try {
			return readVirtualnumAnswer(
				{ statusCode: 200, headers: {}, body: text },
				{ ...context, identifierWord: 'did' },
			);
		} catch (error) {
			return error;
		}
	},
};

/**
 * The CPU time a read takes, in ms (the best of 5): the process's own, so that the other processes
 * of a busy machine, or the other test files running beside this one, do not count.
 */
function timed(read: (text: string) => unknown, text: string): number {
	let best = Infinity;
	for (let run = 0; run < 5; run++) {
		const started = process.cpuUsage();
		read(text);
		const { user, system } = process.cpuUsage(started);
		best = Math.min(best, (user + system) / 1000);
	}
	return best;
}

describe('every reader of the service text is linear', () => {
	for (const [readerName, read] of Object.entries(READERS)) {
		test(readerName, () => {
			for (const [inputName, make] of Object.entries(HOSTILE)) {
				const [small, medium, large] = [10_000, 100_000, 1_000_000].map((bytes) =>
					timed(read, make(bytes)),
				);
				if (process.env.FIGURES)
					console.log(
						`${readerName} on ${inputName}: 10 KB ${small.toFixed(2)} ms, 100 KB ${medium.toFixed(2)} ms, 1 MB ${large.toFixed(2)} ms`,
					);
				// Below a millisecond, timer noise dominates the ratio.
				const ratio = large / Math.max(medium, 0.5);
				assert.ok(
					ratio < 60,
					`${readerName} on ${inputName}: 1 MB took ${ratio.toFixed(1)}× 100 KB`,
				);
				assert.ok(large < 500, `${readerName} on ${inputName}: 1 MB took ${large.toFixed(0)} ms`);
			}
		});
	}
});
