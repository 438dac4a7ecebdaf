/**
 * A lead's value back on its call, in the real n8n: examples/crm-deal-won-value-to-call.json
 * imported and published as a user would, then called as a CRM does when a deal is won
 * (`POST /webhook/deal-won {phone, value, currency}`). The caller has two calls, stored by the
 * service in two forms, and someone else called after them: for each way a CRM spells the number
 * the offline conversion lands on the caller's latest call, and the CRM gets the call back. A
 * caller with no call gets a 404 answer (the run succeeds); a request without a phone a 400, and a
 * value that is no number a 422, nothing stored.
 */
import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { executionsOf, finished } from '../../harness/n8n/executions.mts';
import { CALLER, CALLER_SPELLINGS, seedCallerCalls } from '../../harness/callerCalls.mts';
import { waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';
import { loadExample } from './examples.mts';

const FILE = 'crm-deal-won-value-to-call.json';

interface Answer {
	status: number;
	body: Record<string, unknown>;
}

export async function dealWonRuns(
	n8n: N8nServer,
	sandbox: Sandbox,
	virtualnumApi: string,
	check: Check,
	log: Log,
): Promise<void> {
	const workflow = loadExample(FILE, { virtualnumApi });
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', workflow);
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	const post = async (body: Record<string, unknown>): Promise<Answer> => {
		const res = await fetch(`${n8n.url}/webhook/deal-won`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: res.status, body: (await res.json().catch(() => ({}))) as Answer['body'] };
	};
	try {
		// n8n publishes in the background: a request without a phone until the webhook answers.
		const noPhone = await waitUntil(async () => {
			const answer = await post({ value: 300 });
			return answer.status === 404 ? undefined : answer;
		}, 60_000);
		check(
			noPhone?.status === 400 && noPhone.body.error === 'bad request',
			`${FILE}: a request without a phone is answered 400, before any query (${JSON.stringify(noPhone)})`,
		);
		const { latest } = seedCallerCalls(sandbox);
		for (const phone of CALLER_SPELLINGS) await storedOnLatest(post, sandbox, check, phone, latest);
		await notStored(post, sandbox, check);
		const runs = await waitUntil(async () => {
			const list = await executionsOf(n8n, created.id);
			return list.length >= 6 && list.every(finished) ? list : undefined;
		}, 60_000);
		check(
			runs?.every((run) => run.status === 'success'),
			`${FILE}: every request was a successful run, the refused ones included (${runs?.map((r) => r.status).join(', ')})`,
		);
	} finally {
		await n8n.rest('POST', `/workflows/${created.id}/deactivate`, {});
	}
	log(`${FILE}: done`);
}

const conversions = (sandbox: Sandbox) =>
	sandbox.control
		.requests({ service: 'vn', operation: 'set_ads_offline_conversion' })
		.map((r) => r.body as Record<string, unknown>);

/** The deal of a caller spelled `phone`: its value on the caller's latest call, the CRM answered 200. */
async function storedOnLatest(
	post: (body: Record<string, unknown>) => Promise<Answer>,
	sandbox: Sandbox,
	check: Check,
	phone: string,
	latest: string,
): Promise<void> {
	const before = conversions(sandbox).length;
	const answer = await post({ phone, value: 1200, currency: 'ILS' });
	const sent = conversions(sandbox).slice(before);
	check(
		sent.length === 1 &&
			sent[0].call_uuid === latest &&
			String(sent[0].conversion_value) === '1200',
		`${FILE}: "${phone}": the sandbox received the offline conversion 1200 on the caller's latest call ${latest} (${JSON.stringify(sent)})`,
	);
	check(
		answer.status === 200 &&
			answer.body.ok === true &&
			answer.body.callId === latest &&
			answer.body.value === 1200 &&
			answer.body.currency === 'ILS',
		`${FILE}: "${phone}": the CRM's answer names the call and the value (${answer.status} ${JSON.stringify(answer.body)})`,
	);
}

/** A caller with no call (404) and a value that is no number (422): nothing stored, the CRM told why. */
async function notStored(
	post: (body: Record<string, unknown>) => Promise<Answer>,
	sandbox: Sandbox,
	check: Check,
): Promise<void> {
	const before = conversions(sandbox).length;
	const noCall = await post({ phone: '050-999-0000', value: 300 });
	check(
		noCall.status === 404 &&
			noCall.body.error === 'no call' &&
			noCall.body.phone === '050-999-0000',
		`${FILE}: a caller with no call gets a 404 answer, not a failed run (${JSON.stringify(noCall)})`,
	);
	const badValue = await post({ phone: CALLER, value: 'a lot' });
	check(
		badValue.status === 422 &&
			badValue.body.error === 'not stored' &&
			/Conversion Value/.test(String(badValue.body.reason)),
		`${FILE}: a value that is no number gets a 422 answer naming the field (${JSON.stringify(badValue)})`,
	);
	check(
		conversions(sandbox).length === before,
		`${FILE}: nothing was stored for either (${conversions(sandbox).length - before} conversions)`,
	);
}
