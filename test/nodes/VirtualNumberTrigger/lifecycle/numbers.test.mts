/**
 * Whether a failed update may still have been applied decides what a failed activation puts back
 * (registration.ts rollBack): the failed number too, when its answer was lost. Seen through the
 * trigger: the activation's error says whether the number "may have changed" and was put back.
 * And a number that left the account ("not in the account", code 4019) is skipped when put back,
 * not tried again.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { hostPerFile, sandboxPerFile } from '../../../../dev/harness/nodeTest.mts';
import type { Fault } from '../../../../dev/sandbox/faults.mts';
import { selectedNumbers } from '../../../../dev/harness/trigger.mts';

const CALLS = ['callStarted', 'callEnded'];
const INTERFERENCES = new Set(['reset', 'refused', 'answer', 'statusCodes']);
const isInterference = (fault: Fault | Interference): fault is Interference =>
	INTERFERENCES.has(fault.kind);

/**
 * What the proxy does to the trigger's first update_virtualnum (the registration): lose its answer
 * (a reset connection), refuse its connection (the proxy stops listening once the numbers have been
 * read: `readsBefore` get_virtualnum requests), or answer it itself (status and body).
 */
type Interference =
	| { kind: 'reset' }
	| { kind: 'refused'; readsBefore: number }
	| { kind: 'answer'; status: number; body: string; contentType: string }
	| { kind: 'statusCodes'; codes: Array<number | string> };

/** A pass-through proxy to the sandbox, for the failures the sandbox's own faults cannot give. */
async function startInterferingProxy(target: string, interference: Interference) {
	let updates = 0;
	let reads = 0;
	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', async () => {
			const url = new URL(req.url ?? '/', target);
			const service = url.searchParams.get('service');
			if (service === 'update_virtualnum') updates++;
			if (interference.kind === 'statusCodes' && service === 'update_virtualnum') {
				const code = interference.codes[Math.min(updates, interference.codes.length) - 1];
				res.writeHead(200, { 'content-type': 'application/json' });
				return res.end(JSON.stringify({ service, status: { code, description: `code ${code}` } }));
			}
			if (service === 'update_virtualnum' && updates === 1) {
				if (interference.kind === 'reset') return req.socket.destroy();
				if (interference.kind === 'answer') {
					res.writeHead(interference.status, { 'content-type': interference.contentType });
					return res.end(interference.body);
				}
			}
			const headers = { ...req.headers } as Record<string, string>;
			delete headers.host;
			const raw = Buffer.concat(chunks);
			const answer = await fetch(url, {
				method: req.method,
				headers,
				body: raw.length > 0 ? raw : undefined,
			});
			const refuseNext =
				interference.kind === 'refused' &&
				service === 'get_virtualnum' &&
				++reads === interference.readsBefore;
			res.writeHead(answer.status, {
				'content-type': answer.headers.get('content-type') ?? 'application/json',
				connection: 'close',
			});
			res.end(Buffer.from(await answer.arrayBuffer()));
			if (refuseNext) server.close();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		updates: () => updates,
		close: async () => {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}

describe('trigger: what a failed update_virtualnum may have done', () => {
	const sandbox = sandboxPerFile();
	const host = hostPerFile();

	const firstNumber = () =>
		sandbox.control.virtualnums().find((r) => r.active_status === 1)!.virtualnum;
	const trigger = (number: string, baseUrl = sandbox.vnUrl) =>
		host.add({
			parameters: {
				events: CALLS,
				numbers: 'selected',
				virtualnums: selectedNumbers([number]),
			} as IDataObject,
			credentials: { virtualnumApi: { baseUrl, accessToken: sandbox.tokens.vn } },
		});

	/** The description of the failed activation: whether the failed number was put back as well. */
	async function activationFailure(
		fault: Fault | Interference,
	): Promise<{ number: string; description: string }> {
		const number = firstNumber();
		const proxy = isInterference(fault)
			? await startInterferingProxy(sandbox.vnUrl, fault)
			: undefined;
		if (!proxy)
			sandbox.control.injectFaults({ ...fault, operation: 'update_virtualnum', count: 1 } as Fault);
		try {
			let description = '';
			await assert.rejects(
				trigger(number, proxy?.url).activate(),
				(error: Error & { description?: string }) => {
					assert.match(error.message, new RegExp(`Could not register the trigger on ${number}`));
					description = String(error.description);
					return true;
				},
			);
			return { number, description };
		} finally {
			await proxy?.close();
		}
	}

	const notApplied = (description: string, label: string) =>
		assert.match(description, /No number had been changed\./, label);
	const mayHaveApplied = (description: string, number: string, label: string) =>
		assert.match(
			description,
			new RegExp(`The service may have changed ${number} before the failure`),
			label,
		);

	test('a status code the service answered: not applied, except 999 (internal error) and a success that could not be read', async () => {
		for (const code of [4019, 4020]) {
			const { description } = await activationFailure({ kind: 'serviceError', code });
			notApplied(description, `code ${code}`);
		}
		const refused = await activationFailure({ kind: 'unauthorized', text: 'Invalid Token' });
		notApplied(refused.description, 'HTTP 401');
		const internal = await activationFailure({ kind: 'serviceError', code: 999 });
		mayHaveApplied(internal.description, internal.number, 'code 999');
		const xml = await activationFailure({ kind: 'xml' });
		mayHaveApplied(xml.description, xml.number, 'a success in XML');
	});

	/** How many get_virtualnum requests an activation makes before its first update. */
	async function readsBeforeUpdate(): Promise<number> {
		sandbox.control.clearRequests();
		const t = trigger(firstNumber());
		await t.activate();
		const operations = sandbox.control.requests().map((r) => r.operation);
		await t.deactivate();
		sandbox.control.reset();
		return operations.slice(0, operations.indexOf('update_virtualnum')).length;
	}

	test('no answer: a connection refused never reached the service; a reset may have', async () => {
		const readsBefore = await readsBeforeUpdate();
		const refused = await activationFailure({ kind: 'refused', readsBefore });
		notApplied(refused.description, 'connection refused');
		const reset = await activationFailure({ kind: 'reset' });
		mayHaveApplied(reset.description, reset.number, 'connection reset');
	});

	test('an answer without a status: HTTP 5xx or an unreadable body may have been applied; a 4xx was not', async () => {
		for (const kind of ['http500', 'html', 'truncatedJson', 'empty'] as const) {
			const { number, description } = await activationFailure({ kind });
			mayHaveApplied(description, number, kind);
		}
		const notFound = { kind: 'answer', status: 404, body: 'Not Found', contentType: 'text/plain' };
		notApplied((await activationFailure(notFound as Interference)).description, 'HTTP 404');
	});

	// (The other way of being "not in the account", get_virtualnum finding no record, runs in lifecycle.test.mts.)
	test('"not in the account" (code 4019, as a number or as text) when putting a number back: not tried again', async () => {
		const restoreTries = async (code: number | string) => {
			// The registration's answer is lost (code 999: put back too); every restore meets `code`.
			const proxy = await startInterferingProxy(sandbox.vnUrl, {
				kind: 'statusCodes',
				codes: [999, code],
			});
			try {
				await assert.rejects(trigger(firstNumber(), proxy.url).activate());
				return proxy.updates() - 1;
			} finally {
				await proxy.close();
			}
		};
		assert.equal(
			await restoreTries(4019),
			1,
			'a number no longer in the account is not tried again',
		);
		assert.equal(await restoreTries('4019'), 1, 'the code as text');
		assert.ok((await restoreTries(4018)) > 1, 'any other failure is tried again');
	});
});
