/**
 * Restore Callback URLs after a simulated uninstall, in a real n8n: a published Virtual Number
 * Trigger took a number that reported its calls to a CRM; n8n stops and starts again without any
 * deactivation (as when the package is removed: n8n deactivates nothing, and 2.x calls nothing of a
 * webhook trigger on a restart), so the number still calls n8n. Account → Restore Callback URLs
 * (Dry Run first, then for real, limited to this n8n's address) puts the CRM back; unpublishing
 * the workflow afterwards leaves it there.
 */
import { randomUUID } from 'node:crypto';

import { parse } from 'flatted';

import type { Sandbox } from '../../sandbox/index.mts';
import type { N8nServer } from '../../harness/n8n/server.mts';
import { runFromPinned, type StoredDetail } from '../../harness/n8n/executions.mts';
import { node, waitUntil, type Check, type Log } from '../../harness/n8n/workflows.mts';

const NUMBER = '0722000104';
const CRM = 'https://crm.example.invalid/calls?token=crm-e2e';

function callbackOf(sandbox: Sandbox): { url: string; option: number } {
	const record = sandbox.control.virtualnum(NUMBER)!;
	return { url: String(record.callback_url), option: Number(record.callback_url_option) };
}

/** The Restore node's output items of a stored execution. */
function restored(detail: StoredDetail | undefined): Array<Record<string, unknown>> {
	if (!detail) return [];
	const data = parse(detail.data) as {
		resultData?: { runData?: Record<string, Array<{ data?: { main?: unknown[][] } }>> };
	};
	const items = (data.resultData?.runData?.Restore?.[0]?.data?.main?.[0] ?? []) as Array<{
		json: Record<string, unknown>;
	}>;
	return items.map((item) => item.json);
}

async function runRestore(n8n: N8nServer, credentialId: string, dryRun: boolean) {
	const restore = node(
		'Restore',
		'n8n-nodes-virtualnum.virtualNumber',
		1.2,
		{ resource: 'account', operation: 'restoreCallbacks', n8nAddress: n8n.url, dryRun },
		{ credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number sandbox' } } },
	);
	return await runFromPinned(n8n, {
		name: `E2E: restore callback URLs${dryRun ? ' (dry run)' : ''}`,
		nodes: [node('Start', 'n8n-nodes-base.manualTrigger', 1, {}), restore],
		connections: { Start: { main: [[{ node: 'Restore', type: 'main', index: 0 }]] } },
		pinData: { Start: [{ json: {} }] },
		settings: { executionOrder: 'v1' },
	});
}

async function publishTrigger(n8n: N8nServer, credentialId: string) {
	const webhookId = randomUUID();
	const trigger = node(
		'Virtual Number Trigger',
		'n8n-nodes-virtualnum.virtualNumberTrigger',
		1,
		{
			events: ['callStarted', 'callEnded'],
			numbers: 'selected',
			virtualnums: { number: [{ virtualnum: { __rl: true, mode: 'list', value: NUMBER } }] },
		},
		{ webhookId, credentials: { virtualnumApi: { id: credentialId, name: 'Virtual Number' } } },
	);
	const created = await n8n.rest<{ id: string; versionId: string }>('POST', '/workflows', {
		name: 'E2E: trigger left behind',
		active: false,
		settings: { executionOrder: 'v1' },
		connections: {},
		nodes: [trigger],
	});
	await n8n.rest('POST', `/workflows/${created.id}/activate`, { versionId: created.versionId });
	return { id: created.id, base: `${n8n.url}/webhook/${webhookId}/webhook` };
}

export async function restoreAfterUninstall(
	n8n: N8nServer,
	sandbox: Sandbox,
	credentialId: string,
	check: Check,
	log: Log,
): Promise<void> {
	sandbox.control.seed({
		virtualnum: { virtualnum: NUMBER, callback_url: CRM, callback_url_option: 1 },
	});
	const workflow = await publishTrigger(n8n, credentialId);
	const taken = await waitUntil(
		() => callbackOf(sandbox).url.startsWith(workflow.base),
		60_000,
		250,
	);
	check(taken, `the published trigger took ${NUMBER} (its CRM URL kept inside the trigger's URL)`);
	log('simulated uninstall: n8n stops and starts again without deactivating anything…');
	await n8n.restart();
	check(
		callbackOf(sandbox).url.startsWith(workflow.base),
		`after the simulated uninstall ${NUMBER} still calls n8n`,
	);
	const dry = restored(await runRestore(n8n, credentialId, true));
	check(
		dry.length === 1 &&
			dry[0].restored === false &&
			callbackOf(sandbox).url.startsWith(workflow.base),
		`Restore Callback URLs, Dry Run: lists ${NUMBER} and changes nothing (${dry.length} item(s))`,
	);
	const items = restored(await runRestore(n8n, credentialId, false));
	const back = callbackOf(sandbox);
	check(
		items.length === 1 && items[0].virtualnum === NUMBER && back.url === CRM && back.option === 1,
		`Restore Callback URLs put the CRM's URL and option back on ${NUMBER} (${back.url}, ${back.option})`,
	);
	check(
		!JSON.stringify(items).includes('crm-e2e'),
		'the output masks the secrets of the URLs it shows',
	);
	await n8n.rest('POST', `/workflows/${workflow.id}/deactivate`, {});
	await waitUntil(
		async () => {
			const status = await n8n.rest<{ status: string }>(
				'GET',
				`/workflows/${workflow.id}/publication-status`,
			);
			return status.status === 'not_published';
		},
		60_000,
		250,
	);
	check(
		callbackOf(sandbox).url === CRM,
		'unpublishing the old workflow afterwards leaves the CRM in place',
	);
}
