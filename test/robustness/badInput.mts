/**
 * Bad input, table-driven over every field check of both nodes and the trigger, with the spec's
 * limits read from LIMITS (nodes/shared/checks.ts) and VN_LIMITS (nodes/shared/limits.ts)
 * as data: a value just inside each limit passes the check (its request reaches the service), a
 * value just outside fails before any request with an error that names the field. A last test
 * checks that every limit in LIMITS and VN_LIMITS is in the table, or listed as one that is not an
 * input check (with the reason).
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';

import type { IDataObject } from 'n8n-workflow';

import { SMS_LIMITS, VN_LIMITS } from '../../nodes/shared/limits.ts';
import { LIMITS } from '../../nodes/shared/checks.ts';
import { registeredUrl } from '../../nodes/shared/triggerUrl.ts';
import { TRIGGER_LIMITS } from '../../nodes/VirtualNumberTrigger/settings.ts';
import type { Sandbox } from '../../dev/sandbox/index.mts';
import { runWorkflow } from '../../dev/harness/engine.mts';
import { TriggerHost } from '../../dev/harness/trigger.mts';
import { ROWS } from './badInputRows.mts';
import { A_NUMBER, type Row } from './badInputValues.mts';
import {
	collectError,
	collectRun,
	credentialsFor,
	listedNumbers,
	notePicked,
	outputOf,
} from './support.mts';

/** LIMITS entries that are not checks of a typed value, and why. */
export const NOT_INPUT_CHECKS: Record<string, string> = {
	accessLogRows: 'an output limit of the service (at most 1000 rows), told in the field hint',
	cdrSubuniqueRows: 'an output limit of the service (at most 2000 rows), applied to the answer',
	requestRunTimeMs:
		'a fixed request timeout (voice prompts) and the default of the Timeout option, not an input',
};

export function badInputSuite(sandbox: () => Sandbox): void {
	describe('Bad input: every field check, just inside and just outside its limit (LIMITS as data)', () => {
		let host: TriggerHost;
		before(async () => {
			host = await TriggerHost.start();
		});
		after(async () => await host.close());
		beforeEach(() => sandbox().control.reset());

		const requests = (service?: string) =>
			sandbox().control.requests(service ? { operation: service } : {});

		async function run(row: Row, value: unknown, source: string) {
			if (row.target === 'trigger') return await activate(row, value, source);
			const parameters = row.parameters(value);
			notePicked(row.target, parameters);
			const result = await runWorkflow({
				nodes: [{ name: 'Node', type: row.target, parameters }],
				input: row.input ? row.input(value) : [{ json: {} }],
				credentials: credentialsFor(sandbox()),
			});
			collectRun(source, result);
			return { error: result.error, output: outputOf(result).map((item) => item.json) };
		}

		async function activate(row: Row, value: unknown, source: string) {
			const options = { ...(row.parameters(value).options as IDataObject) };
			let webhookId: string | undefined;
			if (options.secretLengthForUrl !== undefined) {
				// A secret whose length makes the registered URL exactly that long.
				webhookId = 'robust-webhook';
				// The shortest URL the trigger registers (on a number without a callback URL), with a 1-character secret.
				const shortest = registeredUrl(`${host.webhookBaseUrl}/${webhookId}/webhook`, 's', 'live', {
					url: '',
					option: 2,
				});
				options.secret = 's'.repeat((options.secretLengthForUrl as number) - shortest.length + 1);
				delete options.secretLengthForUrl;
			}
			const trigger = host.add({
				webhookId,
				parameters: {
					events: (row.parameters(value).events as string[] | undefined) ?? ['callEnded'],
					numbers: 'selected',
					virtualnums: listedNumbers([A_NUMBER]),
					options,
				},
				credentials: {
					virtualnumApi: { baseUrl: sandbox().vnUrl, accessToken: sandbox().tokens.vn },
				},
			});
			try {
				await trigger.activate();
				await trigger.deactivate();
				return { error: undefined, output: [] };
			} catch (error) {
				collectError(source, error);
				return { error: error as Error & { description?: string | null }, output: [] };
			}
		}

		for (const row of ROWS) {
			const show = (value: unknown) => (row.show ? row.show(value) : JSON.stringify(value));
			describe(`${row.limit}: ${row.field} (${row.target})`, () => {
				for (const value of row.inside) {
					test(`inside: ${show(value)} passes the check, ${row.service} is sent`, async () => {
						const { error, output } = await run(row, value, `bad input ${row.limit} inside`);
						if (error)
							assert.doesNotMatch(
								error.message,
								new RegExp(`^${escape(row.field)}:`),
								`refused by the node's check: ${error.message}`,
							);
						assert.ok(
							requests(row.service).length >= 1,
							`${row.service} was sent${error ? ` (then: ${error.message})` : ''}`,
						);
						if (row.overIsNotice && !error) assert.notEqual(output[0]?.note_truncated, true);
					});
				}
				for (const value of row.outside) {
					if (row.overIsNotice) {
						test(`over: ${show(value)} is sent, and the output says what the service keeps`, async () => {
							const { error, output } = await run(row, value, `bad input ${row.limit} over`);
							assert.equal(error, undefined, error?.message);
							assert.equal(requests(row.service).length, 1);
							row.overIsNotice!(output[0]);
						});
						continue;
					}
					test(`outside: ${show(value)} fails before any request, naming ${row.field}`, async () => {
						const { error } = await run(row, value, `bad input ${row.limit} outside`);
						assert.ok(error, 'the node fails');
						assert.match(
							error.message,
							new RegExp(`^${escape(row.field)}: `),
							`names the field: ${error.message}`,
						);
						assert.deepEqual(
							requests().map((request) => request.operation),
							[],
							'no request reached the service',
						);
					});
				}
			});
		}

		test('every limit in LIMITS, VN_LIMITS, SMS_LIMITS and TRIGGER_LIMITS is in the table, or is not a check of an input', () => {
			const covered = new Set(ROWS.map((row) => row.limit));
			const missing = [
				...[...Object.keys(LIMITS), ...Object.keys(VN_LIMITS)].filter(
					(key) => !covered.has(key) && !(key in NOT_INPUT_CHECKS),
				),
				...Object.keys(SMS_LIMITS)
					.map((key) => `sms.${key}`)
					.filter((key) => !covered.has(key)),
				...Object.keys(TRIGGER_LIMITS)
					.filter((key) => typeof (TRIGGER_LIMITS as Record<string, unknown>)[key] === 'object')
					.map((key) => `trigger.${key}`)
					.filter((key) => !covered.has(key)),
			];
			assert.deepEqual(missing, [], 'limits without a row');
			for (const key of Object.keys(NOT_INPUT_CHECKS))
				assert.ok(key in LIMITS || key in VN_LIMITS, `${key} is a LIMITS or VN_LIMITS entry`);
		});
	});
}

function escape(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
