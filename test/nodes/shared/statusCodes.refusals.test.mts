/**
 * Every refusal text, one advice: each row of docs/errors.md's refusal table, answered by the
 * service, gives the row's meaning in the error and the row's advice in its description, in both
 * nodes (through n8n's engine) and in both credentials' Test. The table is read from the docs, so
 * a row added there is tested, and advice changed in the code without the docs fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { runWorkflow, testCredential } from '../../../dev/harness/engine.mts';
import { startRecorder, type Recorder } from '../../../dev/harness/recorder.mts';
import { startSandbox } from '../../../dev/sandbox/index.mts';

interface Row {
	text: string;
	status: number;
	services: Array<'vn' | 'sms'>;
	meaning: string;
	advice: string;
}

/** The rows of the table under "Refusals: each text and what to do". */
function tableRows(): Row[] {
	const docs = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
	const section = docs.slice(docs.indexOf('### Refusals: each text and what to do'));
	const all = section.split('\n');
	const first = all.findIndex((line) => line.startsWith('| '));
	const end = all.findIndex((line, index) => index > first && !line.startsWith('| '));
	// The header and its separator line first.
	return all.slice(first + 2, end).map((line) => {
		const [answers, service, source, meaning, advice] = line
			.slice(2, -2)
			.split(' | ')
			.map((cell) => cell.trim());
		const examples = [...answers.matchAll(/`([^`]+)`/g)].map((match) => match[1]);
		return {
			text: examples[examples.length - 1].replace('<ip>', '198.51.100.4'),
			status: /401/.test(`${answers} ${source}`) ? 401 : 200,
			services: service === 'both' ? ['vn', 'sms'] : ['vn'],
			meaning,
			advice: advice.replace(/\.$/, ''),
		};
	});
}

const ROWS = tableRows();

/**
 * The pieces of advice a refusal's text gives: the row's own, the token to check, and the SMS
 * service's reminder of its IP allow-list. One message per refusal: the row's advice, the token
 * only where the advice is about it, and the reminder only where the service did not name the cause
 * (never beside "the token and the IP are not the problem", nor beside the IP list's own advice).
 */
function adviceIn(text: string, service: 'vn' | 'sms') {
	return {
		tokenToCheck: /The token to check is the Access Token/.test(text),
		ipReminder: (text.match(/also checks the IP address n8n calls from/g) ?? []).length,
		notTheProblem: /the token and the IP are not the problem/.test(text),
		service,
	};
}

function expectedAdvice(row: Row, service: 'vn' | 'sms') {
	const suspended = row.meaning === 'The account is suspended';
	const ip = /allowed IP list/.test(row.advice);
	const token = /Access Token/.test(row.advice);
	return {
		tokenToCheck: token,
		ipReminder: service === 'sms' && !suspended && !ip ? 1 : 0,
		notTheProblem: suspended,
		service,
	};
}
const TOKEN = 'refusal-test-token';

let server: Recorder;
before(async () => {
	server = await startRecorder();
});
after(async () => await server.close());

const NODES = {
	vn: { type: 'virtualNumber', parameters: { resource: 'account', operation: 'test' } },
	sms: { type: 'bulkSms', parameters: { resource: 'credit', operation: 'getBalance' } },
};
const CREDENTIALS = {
	vn: { node: 'virtualNumber', name: 'virtualnumApi' },
	sms: { node: 'bulkSms', name: 'virtualnumSmsApi' },
};

describe("docs/errors.md's refusal table, row by row", () => {
	test('the table has every text of the contract and of the field', () => {
		assert.equal(ROWS.length, 12);
		assert.ok(ROWS.some((row) => row.text === 'Token invalid: the account is suspended'));
	});

	for (const row of ROWS) {
		for (const service of row.services) {
			test(`${service}: "${row.text}" (HTTP ${row.status}) → ${row.meaning}`, async () => {
				server.answer({ status: row.status, body: row.text });
				const result = await runWorkflow({
					nodes: [{ name: 'Node', ...NODES[service] }],
					credentials: {
						[CREDENTIALS[service].name]: { baseUrl: server.url, accessToken: TOKEN },
					},
				});
				assert.ok(result.error, 'the node fails');
				assert.ok(result.error.message.endsWith(`: ${row.meaning}`), result.error.message);
				assert.ok(String(result.error.description).includes(row.advice), result.error.description!);
				const checked = await testCredential(CREDENTIALS[service].node, CREDENTIALS[service].name, {
					baseUrl: server.url,
					accessToken: TOKEN,
				});
				assert.equal(checked.status, 'Error');
				assert.ok(checked.message.includes(row.meaning), checked.message);
				assert.ok(checked.message.includes(row.advice), checked.message);
				if (row.meaning === 'The account is suspended')
					assert.doesNotMatch(checked.message, /token to check/i, 'no advice about the token');
				for (const text of [checked.message, String(result.error.description)])
					assert.deepEqual(adviceIn(text, service), expectedAdvice(row, service), text);
			});
		}
	}
});

describe('a suspended account in the field profile (the sandbox)', () => {
	test('the credential Test says to contact the provider, not to check the token', async () => {
		const sandbox = await startSandbox({ profile: 'field' });
		try {
			const checked = await testCredential('virtualNumber', 'virtualnumApi', {
				baseUrl: sandbox.vnUrl,
				accessToken: 'suspended-sandbox-token',
			});
			assert.equal(checked.status, 'Error');
			assert.match(checked.message, /The account is suspended/);
			assert.match(checked.message, /Contact the provider to reactivate the account/);
			assert.match(checked.message, /Token invalid: the account is suspended/);
		} finally {
			await sandbox.close();
		}
	});
});
