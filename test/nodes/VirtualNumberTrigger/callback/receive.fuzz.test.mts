/**
 * 10,000 random requests (methods, content types, bodies, raw bodies, query strings, headers,
 * client addresses) straight into the trigger's webhook function, on triggers with random
 * settings: the function never throws, and its answers keep the rules (401 without the secret or
 * from a disallowed address, 413 over the size limit, nothing started for an event not chosen).
 * The started ones run on n8n's WorkflowExecute, so their items are ones n8n accepts. A further
 * 1,000 random requests go over HTTP through the harness's n8n-like webhook server (its body parser).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { isSafeObjectProperty, type IDataObject } from 'n8n-workflow';

import { prng, type Rng } from '../../../../dev/harness/prng.mts';
import {
	TriggerHost,
	type FakeRequest,
	type TriggerInstance,
} from '../../../../dev/harness/trigger.mts';

const RUNS = 10_000;
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const SECRET = 'fuzz-Secret_42';
const EVENT_OF: Record<string, string> = {
	callStarted: 'call.started',
	callEnded: 'call.ended',
	smsDelivery: 'sms.delivery',
};

/** Every name of Object.prototype: as event word, as type, as field name (none may reach the prototype). */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype);
const FIELD_NAMES = [
	...PROTOTYPE_NAMES,
	'CLI',
	'DDI',
	'UUID',
	'CALLSTATUS',
	'DURATION',
	'CALLDURATION',
	'DEST',
	'download',
	'vnt',
	'vnt_prev',
	'caller',
	'callee',
	'arguments',
	'prototype',
	'event',
	'EVENT',
	'type',
	'event_type',
	'call_uuid',
	'cdr_uniqueid',
	'cdr_ddi',
	'cdr_ani',
	'user_phone',
	'user_name',
	'call_status',
	'start_call',
	'end_call',
	'call_duration',
	'record_file_exists',
	'message_id',
	'dest',
	'sender',
	'status',
	'status_time',
	'sendtime',
	'secret',
	'__proto__',
	'constructor',
	'toString',
	'hasOwnProperty',
	'valueOf',
	'',
	' ',
	'a.b',
	'x[y]',
	'0',
	'length',
	'ünïcödé',
	'💥',
];
const EVENT_WORDS = [
	...PROTOTYPE_NAMES,
	'STARTED',
	'ENDED',
	'ANSWER',
	'NOANSWER',
	'start',
	'end',
	'call.start',
	'call.end',
	'CALL_END',
	'hangup',
	'sms',
	'dlr',
	'delivery',
	'ringing',
	'nope',
	'',
	'  end  ',
];

function randomString(rng: Rng, max = 40): string {
	const alphabets = [
		'abcdefghijklmnopqrstuvwxyz0123456789',
		'<>&"\'=;{}[]%\\/\u0000\n\r\t',
		'שלוםмир中文😀\u202e\ud800',
		'0123456789+- ',
	];
	const alphabet = rng.pick(alphabets);
	let out = '';
	const length = rng.int(0, max);
	for (let i = 0; i < length; i++) out += alphabet[rng.int(0, alphabet.length - 1)];
	return out;
}

function randomScalar(rng: Rng): unknown {
	switch (rng.int(0, 9)) {
		case 0:
			return rng.pick(EVENT_WORDS);
		case 1:
			return rng.int(-1e6, 1e12);
		case 2:
			return rng.pick([NaN, Infinity, -Infinity, -0, 1e308, 0.1]);
		case 3:
			return rng.chance(0.5);
		case 4:
			return null;
		case 5:
			return undefined;
		case 6:
			return `07220001${rng.int(0, 99)}`;
		case 7:
			return rng.chance(0.5) ? SECRET : `${SECRET}x`;
		default:
			return randomString(rng);
	}
}

function randomValue(rng: Rng, depth = 0): unknown {
	const roll = rng.int(0, depth > 2 ? 5 : 9);
	if (roll <= 5) return randomScalar(rng);
	if (roll === 6) return Array.from({ length: rng.int(0, 4) }, () => randomValue(rng, depth + 1));
	return randomObject(rng, depth + 1);
}

function randomObject(rng: Rng, depth = 0): IDataObject {
	const object: IDataObject = {};
	for (let i = rng.int(0, 8); i > 0; i--) {
		const key = rng.chance(0.8) ? rng.pick(FIELD_NAMES) : randomString(rng, 12);
		// defineProperty: "__proto__" becomes an own key, as JSON.parse makes it
		Object.defineProperty(object, key, {
			value: randomValue(rng, depth),
			enumerable: true,
			writable: true,
			configurable: true,
		});
	}
	return object;
}

function randomBody(rng: Rng): unknown {
	switch (rng.int(0, 11)) {
		case 0:
			return undefined;
		case 1:
			return null;
		case 2:
			return {};
		case 3:
			return randomString(rng, 200);
		case 4:
			return Buffer.from(randomString(rng, 100));
		case 5:
			return [randomObject(rng), randomObject(rng)];
		case 6:
			return randomScalar(rng);
		case 7:
			return { root: randomObject(rng) };
		case 8:
			return Object.create(null) as IDataObject;
		default:
			return randomObject(rng);
	}
}

function randomRawBody(rng: Rng, body: unknown): Buffer | string | undefined {
	switch (rng.int(0, 6)) {
		case 0:
			return undefined;
		case 1:
			return Buffer.alloc(0);
		case 2:
			return Buffer.from(randomString(rng, 300));
		case 3:
			return `${rng.pick(['{', '[', '', 'a=b&', '<x>'])}${randomString(rng, 100)}`;
		case 4:
			return Buffer.alloc(rng.int(1, 80) * 1024, 0x61); // sometimes over the limits
		default:
			try {
				return Buffer.from(JSON.stringify(body) ?? '');
			} catch {
				return undefined;
			}
	}
}

function randomQuery(rng: Rng): unknown {
	switch (rng.int(0, 7)) {
		case 0:
			return undefined;
		case 1:
			return null;
		case 2:
			return randomString(rng);
		case 3:
			return [randomString(rng)];
		case 4:
			return { secret: SECRET, ...randomObject(rng) };
		case 5:
			return { secret: [SECRET, SECRET] };
		case 6:
			return {
				secret: rng.pick([SECRET, `${SECRET} `, SECRET.toUpperCase(), '', 'x']),
				event: rng.pick(EVENT_WORDS),
				call_uuid: '1.2',
			};
		default:
			return randomObject(rng);
	}
}

function randomIp(rng: Rng): string | undefined {
	return rng.pick([
		undefined,
		'127.0.0.1',
		'::ffff:127.0.0.1',
		'::1',
		'203.0.113.9',
		'::ffff:203.0.113.9',
		'198.51.100.200',
		'2001:db8::1',
		'2001:db9::1',
		'10.1.2.3',
		'not-an-ip',
		'',
		'999.1.1.1',
		'[::1]',
		'fe80::1%eth0',
		'1.2.3',
	]);
}

function randomRequest(rng: Rng): FakeRequest {
	const body = randomBody(rng);
	const headers: Record<string, string | string[] | undefined> = {};
	if (rng.chance(0.7)) {
		headers['content-type'] = rng.pick([
			'application/json',
			'application/json; charset=utf-8',
			'application/x-www-form-urlencoded',
			'text/plain',
			'application/xml',
			'text/xml',
			'multipart/form-data; boundary=x',
			'application/octet-stream',
			'garbage/////',
			'',
		]);
	}
	if (rng.chance(0.3))
		headers['content-length'] = rng.pick([
			'0',
			'-5',
			'abc',
			'99999999',
			'10',
			['1', '2'] as unknown as string,
		]);
	if (rng.chance(0.2)) headers['x-forwarded-for'] = randomIp(rng) ?? '';
	return {
		method: rng.pick([
			'GET',
			'POST',
			'POST',
			'POST',
			'PUT',
			'DELETE',
			'HEAD',
			'OPTIONS',
			'get',
			'',
			'X',
		]),
		query: randomQuery(rng),
		body,
		rawBody: randomRawBody(rng, body),
		headers,
		ip: randomIp(rng),
	};
}

/** The addresses of randomIp() each allow list lets in. */
const ALLOWED: Record<string, string[]> = {
	'127.0.0.0/8, 2001:db8::/32': ['127.0.0.1', '::ffff:127.0.0.1', '2001:db8::1'],
	'203.0.113.0/24': ['203.0.113.9', '::ffff:203.0.113.9'],
	'::1, 198.51.100.0/25': ['::1', '[::1]'],
};

function size(request: FakeRequest): number | undefined {
	if (request.rawBody !== undefined) return Buffer.byteLength(request.rawBody);
	return undefined;
}

/** Keys, at any depth, that n8n refuses in expressions: n8n-workflow's own check decides. */
function refusedKeys(value: unknown, path = '$json'): string[] {
	if (value === null || typeof value !== 'object') return [];
	return Object.keys(value).flatMap((key) => [
		...(isSafeObjectProperty(key) ? [] : [`${path}.${key}`]),
		...refusedKeys((value as Record<string, unknown>)[key], `${path}.${key}`),
	]);
}

describe('Virtual Number Trigger → 10,000 random requests', () => {
	let host: TriggerHost;
	let triggers: Array<{ t: TriggerInstance; settings: IDataObject }>;
	before(async () => {
		host = await TriggerHost.start();
		const credentials = { virtualnumApi: { baseUrl: 'http://127.0.0.1:9', accessToken: 'unused' } };
		const settingsList: IDataObject[] = [
			{ events: ['callStarted', 'callEnded', 'smsDelivery'], options: {} },
			{ events: ['callEnded'], options: { secret: SECRET } },
			{ events: ['callStarted'], options: { allowedIps: '127.0.0.0/8, 2001:db8::/32' } },
			{
				events: ['smsDelivery'],
				options: { secret: SECRET, allowedIps: '203.0.113.0/24', maxBodyKb: 1 },
			},
			{ events: ['callStarted', 'smsDelivery'], options: { maxBodyKb: 4 } },
			{ events: ['callEnded', 'smsDelivery'], options: { allowedIps: '::1, 198.51.100.0/25' } },
		];
		triggers = settingsList.map((settings) => ({
			t: host.add({ parameters: settings, credentials }),
			settings,
		}));
	});
	after(async () => await host.close());

	test(`the webhook function never throws, and keeps its rules (seed ${SEED})`, async () => {
		const rng = prng(SEED);
		const tally = {
			started: 0,
			ok: 0,
			unauthorized: 0,
			tooLarge: 0,
			other: 0,
			events: {} as Record<string, number>,
		};
		const started = Date.now();
		for (let run = 0; run < RUNS; run++) {
			const { t, settings } = rng.pick(triggers);
			const request = randomRequest(rng);
			// every started execution runs on WorkflowExecute: its item must be one n8n accepts
			const outcome = await t.receive(request, { execute: true });
			const context = () =>
				`run ${run} (seed ${SEED}): ${JSON.stringify({ settings, request: { ...request, rawBody: String(request.rawBody).slice(0, 80) } })}`;
			assert.equal(
				outcome.error,
				undefined,
				`the webhook threw: ${String(outcome.error)} — ${context()}`,
			);
			assert.equal(outcome.returned, true, context());

			const options = settings.options as IDataObject;
			const query = request.query as IDataObject | undefined;
			if (outcome.status === 401) tally.unauthorized++;
			else if (outcome.status === 413) tally.tooLarge++;
			else if (outcome.status === 200) tally.ok++;
			else tally.other++;
			assert.ok(
				[200, 401, 413].includes(outcome.status),
				`status ${outcome.status} — ${context()}`,
			);

			if (!outcome.started) continue;
			tally.started++;
			// started ⇒ every check passed
			if (options.secret)
				assert.equal(query?.secret, SECRET, `started without the secret — ${context()}`);
			if (options.allowedIps) {
				assert.ok(
					ALLOWED[String(options.allowedIps)].includes(String(request.ip)),
					`started from ${request.ip} — ${context()}`,
				);
			}
			const limit = Number(options.maxBodyKb ?? 64) * 1024;
			const measured = size(request);
			if (measured !== undefined)
				assert.ok(measured <= limit, `started over the size limit — ${context()}`);
			assert.equal(outcome.items.length, 1, context());
			const json = outcome.items[0].json;
			const event = String(json.event);
			tally.events[event] = (tally.events[event] ?? 0) + 1;
			const chosen = (settings.events as string[]).map((key) => EVENT_OF[key]);
			assert.ok(
				event === 'unknown' || chosen.includes(event),
				`an event not chosen started: ${event} — ${context()}`,
			);
			// the secret parameter is taken out (a caller echoing the value under other names is its own data)
			if (options.secret)
				assert.ok(
					!Object.prototype.hasOwnProperty.call(json.query ?? {}, 'secret'),
					`the secret shows in the item — ${context()}`,
				);
			assert.ok(typeof json.receivedAt === 'string' && typeof json.method === 'string', context());
			const refused = refusedKeys(json);
			assert.deepEqual(refused, [], `keys n8n refuses in expressions — ${context()}`);
		}
		const ms = Date.now() - started;
		console.log(`    ${RUNS} requests in ${ms} ms: ${JSON.stringify(tally)}`);
		// the draw exercised every branch
		assert.ok(
			tally.started > 1000 &&
				tally.unauthorized > 1000 &&
				tally.tooLarge > 100 &&
				tally.ok > tally.started,
		);
		for (const event of ['call.started', 'call.ended', 'sms.delivery', 'unknown'])
			assert.ok((tally.events[event] ?? 0) > 50, `${event}: ${tally.events[event]}`);
	});

	test('every Object.prototype name as event, as type and as field name: passed on, never dropped, never polluting', async () => {
		const { t } = triggers[0]; // every event, no secret, no allow list
		let runs = 0;
		for (const name of PROTOTYPE_NAMES) {
			const bodies: IDataObject[] = [
				{ event: name },
				{ type: name },
				{ event: name, call_uuid: '1.1', cdr_ddi: '0722000100' },
				{ type: name, message_id: '7' },
				JSON.parse(`{${JSON.stringify(name)}: "x", "call_uuid": "1.2"}`) as IDataObject,
				JSON.parse(
					`{${JSON.stringify(name)}: {"event": "end"}, "event": ${JSON.stringify(name)}}`,
				) as IDataObject,
			];
			for (const body of bodies) {
				for (const request of [
					{ method: 'POST', body },
					{ method: 'GET', query: body },
				] as FakeRequest[]) {
					const outcome = await t.receive(request);
					runs++;
					assert.equal(outcome.error, undefined, String(outcome.error));
					assert.equal(
						outcome.started,
						true,
						`${JSON.stringify(body)} (${request.method}) was dropped`,
					);
					assert.deepEqual(
						refusedKeys(outcome.items[0].json),
						[],
						JSON.stringify(outcome.items[0].json),
					);
				}
			}
		}
		assert.equal(({} as IDataObject).x, undefined);
		console.log(`    ${runs} requests with Object.prototype names, every one passed on`);
	});

	test('1,000 random requests over HTTP (n8n-like body parsing in front) never make it throw', async () => {
		const rng = prng(SEED + 1);
		const statuses: Record<number, number> = {};
		for (let run = 0; run < 1000; run++) {
			const { t } = rng.pick(triggers);
			const method = rng.pick(['GET', 'POST', 'POST']);
			const query = new URLSearchParams();
			for (let i = rng.int(0, 4); i > 0; i--)
				query.append(
					rng.chance(0.8) ? rng.pick(FIELD_NAMES) : randomString(rng, 8),
					String(randomScalar(rng)),
				);
			if (rng.chance(0.4)) query.append('secret', rng.chance(0.7) ? SECRET : randomString(rng, 10));
			const contentType = rng.pick([
				'application/json',
				'application/x-www-form-urlencoded',
				'text/plain',
				'application/xml',
				'application/octet-stream',
				undefined,
			]);
			let body: string | undefined;
			if (method === 'POST') {
				body = rng.pick([
					() => JSON.stringify(randomBody(rng) ?? null),
					() =>
						new URLSearchParams(
							Object.entries(randomObject(rng)).map(([k, v]): [string, string] => [
								k,
								typeof v === 'object' ? JSON.stringify(v) : String(v),
							]),
						).toString(),
					() => `<r>${randomString(rng, 60)}</r>`,
					() => randomString(rng, 300),
					() => 'x'.repeat(rng.int(0, 90) * 1024),
				])();
			}
			const answer = await fetch(`${t.webhookUrl}?${query}`, {
				method,
				body,
				headers: contentType ? { 'Content-Type': contentType } : {},
			});
			await answer.arrayBuffer();
			statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
			assert.ok(
				[200, 401, 413, 422].includes(answer.status),
				`status ${answer.status} (run ${run})`,
			);
		}
		const outcomes = triggers.flatMap(({ t }) => t.outcomes.filter((o) => o.path !== '/webhook'));
		assert.ok(outcomes.length > 500);
		for (const outcome of outcomes) assert.equal(outcome.error, undefined, String(outcome.error));
		console.log(`    1000 HTTP requests: ${JSON.stringify(statuses)}`);
	});

	test('objects no HTTP parser would produce (throwing getters, cycles) do not make it throw either', async () => {
		const { t } = triggers[0];
		const hostile = {
			get event(): string {
				throw new Error('boom');
			},
		};
		const cyclic: IDataObject = { event: 'end', call_uuid: '1' };
		cyclic.self = cyclic;
		const throwingQuery = new Proxy(
			{},
			{
				ownKeys: () => {
					throw new Error('keys');
				},
			},
		);
		for (const request of [
			{ body: hostile },
			{ body: cyclic },
			{ query: throwingQuery, body: { event: 'end' } },
			{ body: cyclic, rawBody: undefined, headers: {} },
			{ method: { toString: 1 }, body: { event: 'end' } },
			{ headers: { 'content-length': { valueOf: 1 } }, body: { event: 'end' } },
		] as unknown as FakeRequest[]) {
			const outcome = await t.receive(request, { execute: false });
			assert.equal(outcome.error, undefined, String(outcome.error));
			assert.ok([200, 401, 413].includes(outcome.status));
		}
	});
});
