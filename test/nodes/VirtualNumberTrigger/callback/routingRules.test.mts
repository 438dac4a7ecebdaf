/**
 * Respond With "Using Routing Rules": the trigger answers the call start itself, from its rules
 * (callers by phone identity, the virtual number dialled, the opening hours in the Service Time
 * Zone, the After-Hours Destination), before the workflow runs; the run starts with the call and
 * what was answered (routedTo, routeRefused, routeRule). Allowed Destinations and the loop
 * refusal apply to the rules' destinations as to the workflow's. Through the harness (n8n 2.40's
 * webhook handling) and, last, against the sandbox, whose calls are routed by the answer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { DateTime } from 'luxon';
import type { IDataObject } from 'n8n-workflow';

import { hostPerFile, sandboxPerFile } from '../../../../dev/harness/nodeTest.mts';
import {
	MAP_TYPE,
	TriggerHost,
	selectedNumbers,
	type TriggerInstance,
} from '../../../../dev/harness/trigger.mts';
import { START, call, logged as loggedSince, settled } from './routeSetup.mts';

const VIP = '0547770001';
const DIRECT_LINE = '0509998888';
const ZONE = 'Asia/Jerusalem';
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Opening hours open all day on every day but `closedToday` (today, in the Service Time Zone). */
function hours(closedToday: boolean): IDataObject {
	const today = DAYS[DateTime.now().setZone(ZONE).weekday - 1];
	const days = closedToday ? DAYS.filter((day) => day !== today) : DAYS;
	return { period: [{ days, opens: '00:00', closes: '24:00' }] };
}

const RULES = {
	rule: [
		{ callers: `${VIP}, 052111*`, destination: '050-999-8888' },
		{ callers: '', virtualnum: '0722000200', destination: '0501110002' },
		{ callers: '0547770009', destination: '1-900-72-1234' },
		{ callers: '0547770010', destination: '+972-72-200-0100' },
		{ callers: '0547770011', when: 'closed', destination: '0501110011' },
	],
};

describe('Virtual Number Trigger → Call Started → Respond With Using Routing Rules', () => {
	let host: TriggerHost;
	before(async () => {
		host = await TriggerHost.start();
	});
	after(async () => await host.close());

	function trigger(options: IDataObject = {}, delayMs = 0, typeVersion = 1.1): TriggerInstance {
		return host.add({
			typeVersion,
			parameters: {
				events: ['callStarted', 'callEnded'],
				options: { respondWith: 'rules', routingRules: RULES, ...options },
			},
			credentials: {
				virtualnumApi: {
					baseUrl: 'http://127.0.0.1:9',
					accessToken: 'unused',
					serviceTimeZone: ZONE,
				},
			},
			downstream: [
				{ name: 'Log', type: MAP_TYPE, parameters: { values: { logged: true }, delayMs } },
			],
		});
	}
	const logged = (from: number, words: string) => loggedSince(host, from, words);
	const from = (caller: string, fields: Record<string, string> = {}) => ({
		...START,
		cdr_ani: caller,
		...fields,
	});

	test('a VIP is answered the direct line at once, before the run; the run gets what was answered', async () => {
		const t = trigger({}, 800);
		const answer = await call(t, from(VIP));
		assert.deepEqual([answer.status, answer.text], [200, DIRECT_LINE]);
		assert.match(String(answer.type), /^text\/plain/);
		assert.ok(answer.ms < 400, `not waiting for the 800 ms run (${answer.ms} ms)`);
		const item = (await settled(t)).items[0].json;
		assert.deepEqual(
			[item.event, item.callerNumber, item.routedTo, item.routeRefused, item.routeRule],
			['call.started', VIP, DIRECT_LINE, null, 'rule 1'],
		);
	});

	test('callers in any spelling, and the start of numbers, by phone identity', async () => {
		const t = trigger();
		for (const caller of [
			'+972 54-777-0001',
			'547770001',
			'٠٥٤٧٧٧٠٠٠١',
			'0521119999',
			'+972521110000',
		])
			assert.equal((await call(t, from(caller))).text, DIRECT_LINE, caller);
		assert.equal((await call(t, from('0531119999'))).text, '', 'another prefix');
	});

	test('a rule for one virtual number takes the calls to it only', async () => {
		const t = trigger();
		assert.equal(
			(await call(t, from('0541234567', { cdr_ddi: '+972 72-200-0200' }))).text,
			'0501110002',
		);
		assert.equal((await call(t, from('0541234567'))).text, '', 'a call to another number');
	});

	test("an ordinary caller keeps the number's own routing, without a log line", async () => {
		const start = host.logCount;
		const t = trigger();
		const answer = await call(t, from('0541234567'));
		assert.deepEqual([answer.status, answer.text], [200, '']);
		const item = (await settled(t)).items[0].json;
		assert.deepEqual([item.routedTo, item.routeRefused, item.routeRule], ['', null, null]);
		assert.ok(!(await logged(start, "left to the number's own routing")));
	});

	test('outside the opening hours: the After-Hours Destination, unless a rule for those hours takes the call', async () => {
		const t = trigger({ openingHours: hours(true), afterHoursDestination: '0722000199' });
		const ordinary = await call(t, from('0541234567'));
		assert.equal(ordinary.text, '0722000199');
		assert.equal((await settled(t)).items[0].json.routeRule, 'After-Hours Destination');
		assert.equal((await call(t, from(VIP))).text, DIRECT_LINE, 'a rule for every hour comes first');
		assert.equal((await call(t, from('0547770011'))).text, '0501110011', 'a rule for closed hours');
	});

	test('within the opening hours: no After-Hours Destination, and a rule for closed hours does not apply', async () => {
		const t = trigger({ openingHours: hours(false), afterHoursDestination: '0722000199' });
		assert.equal((await call(t, from('0541234567'))).text, '');
		assert.equal((await call(t, from('0547770011'))).text, '');
	});

	test("a premium-rate destination in the rules is refused: the number's own routing, routeRefused, a log line", async () => {
		const start = host.logCount;
		const t = trigger();
		assert.equal((await call(t, from('0547770009'))).text, '');
		const item = (await settled(t)).items[0].json;
		assert.equal(item.routedTo, '');
		assert.match(
			String(item.routeRefused),
			/^refused 1900721234 from rule 3: it is an Israeli special-service number.*\(Allowed Destinations\)$/,
		);
		assert.ok(
			await logged(
				start,
				"call c-1 from 0547770009 left to the number's own routing: refused 1900721234",
			),
		);
	});

	test('no loop: the number dialled is refused as a destination, in any spelling, in every version', async () => {
		for (const version of [1, 1.1]) {
			const start = host.logCount;
			const t = trigger({}, 0, version);
			assert.equal((await call(t, from('0547770010'))).text, '', `version ${version}`);
			const item = (await settled(t)).items[0].json;
			assert.match(
				String(item.routeRefused),
				/^refused 972722000100 from rule 4: it is the virtual number that was dialled/,
			);
			assert.ok(await logged(start, 'no loops'));
		}
	});

	test('…unless Also Allowed Prefixes lists it whole (a prefix of it is not enough)', async () => {
		assert.equal((await call(trigger({ allowedPrefixes: '07220' }), from('0547770010'))).text, '');
		const listed = trigger({ allowedPrefixes: '072-200-0100' });
		assert.equal((await call(listed, from('0547770010'))).text, '972722000100');
	});

	test("a rule's mistakes fail before any call: the callback is refused as misconfigured, naming the rule", async () => {
		for (const [options, words] of [
			[
				{ routingRules: { rule: [{ callers: 'VIP list', destination: DIRECT_LINE }] } },
				'rule 1, Callers',
			],
			[
				{ routingRules: { rule: [{ callers: VIP, destination: 'the desk' }] } },
				'rule 1, Destination',
			],
			[
				{ openingHours: { period: [{ days: ['monday'], opens: '9', closes: '17:00' }] } },
				'Opening Hours, period 1',
			],
			[
				{ openingHours: { period: [{ days: ['monday'], opens: '18:00', closes: '08:00' }] } },
				'closes (08:00) before it opens',
			],
			[{ afterHoursDestination: '12' }, 'After-Hours Destination'],
		] as const) {
			const start = host.logCount;
			const t = trigger(options);
			assert.equal((await call(t, from(VIP))).status, 500, words);
			assert.equal(t.executions.length, 0);
			assert.ok(await logged(start, words), `the log names ${words}`);
		}
	});

	test('Call Ended and the other callbacks: answered empty at once, the workflow runs', async () => {
		const t = trigger({}, 500);
		const answer = await call(t, from(VIP, { event: 'hangup', call_status: 'ANSWER' }));
		assert.deepEqual([answer.status, answer.text], [200, '']);
		assert.ok(answer.ms < 400, `${answer.ms} ms`);
		const item = (await settled(t)).items[0].json;
		assert.equal(item.event, 'call.ended');
		assert.equal(item.routedTo, undefined, 'only a call start is routed');
	});
});

describe('Routing rules against the sandbox: the service routes each call by the answer', () => {
	const sandbox = sandboxPerFile();
	const host = hostPerFile();

	async function activated(virtualnums: string[] | 'all', options: IDataObject, typeVersion = 1.1) {
		const t = host.add({
			typeVersion,
			parameters: {
				events: ['callStarted'],
				...(virtualnums === 'all'
					? { numbers: 'all' }
					: { numbers: 'selected', virtualnums: selectedNumbers(virtualnums) }),
				options: { respondWith: 'rules', secret: 'route-s3cret', ...options },
			},
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		await t.activate();
		return t;
	}
	const numbers = () =>
		sandbox.control
			.virtualnums()
			.filter((record) => record.active_status === 1)
			.map((record) => record.virtualnum);

	for (const acceptEncoding of ['', 'gzip, br'])
		test(`a VIP routed to the direct line, another caller to the number's own routing (Accept-Encoding "${acceptEncoding}")`, async () => {
			sandbox.control.configure({ callbackAcceptEncoding: acceptEncoding });
			const [number] = numbers();
			const t = await activated([number], {
				routingRules: { rule: [{ callers: VIP, destination: DIRECT_LINE }] },
			});
			try {
				const first = sandbox.control.routes().length;
				await sandbox.control.placeCall({ virtualnum: number, caller: VIP });
				await sandbox.control.placeCall({ virtualnum: number, caller: '0547770002' });
				const [vip, other] = sandbox.control.routes().slice(first);
				assert.deepEqual([vip.destination, vip.routedTo], [DIRECT_LINE, DIRECT_LINE]);
				assert.equal(other.destination, '');
			} finally {
				await t.deactivate();
				sandbox.control.configure({ callbackAcceptEncoding: '' });
			}
		});

	test("no loop: another number of the account is refused from version 1.1, with Selected Numbers too (the account's list is read at activation)", async () => {
		const [number, other] = numbers();
		const rules = { routingRules: { rule: [{ callers: VIP, destination: other }] } };
		for (const [scope, version, routed] of [
			[[number], 1.1, ''],
			['all', 1.1, ''],
			[[number], 1, other],
		] as const) {
			const t = await activated(scope === 'all' ? 'all' : [...scope], rules, version);
			try {
				const first = sandbox.control.routes().length;
				await sandbox.control.placeCall({ virtualnum: number, caller: VIP });
				const [route] = sandbox.control.routes().slice(first);
				assert.equal(route.destination, routed, `${String(scope)}, version ${version}`);
			} finally {
				await t.deactivate();
			}
		}
	});
});
