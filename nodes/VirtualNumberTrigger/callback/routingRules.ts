/**
 * Respond With "Using Routing Rules": routing the trigger decides by itself, from the call alone
 * (who calls, which virtual number, when), so the call start is answered before any workflow run
 * (routeCall.ts answers it; the run still starts, with what was answered). Here: the rules read
 * from the Options (each problem named before any call), and the rule a call matches.
 *
 * A rule takes a call when its callers (numbers, or the start of numbers written with a trailing
 * `*`, compared by phone identity: `054-777-0001`, `+972 54 7770001` and `547770001` are one), its
 * virtual number and its time (always, during the opening hours, outside them) all fit; the first
 * rule that fits wins. A call no rule takes goes outside the opening hours to the After-Hours
 * Destination, else keeps the number's own routing. Opening hours are wall-clock times in the
 * Service Time Zone (the credential's), so summer time changes nothing.
 */
import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { DateTime } from 'luxon';

import { notAPhoneNumber } from '../../shared/callRouting';
import { DEFAULT_COUNTRY_CODE, phoneIdentity, readPhone } from '../../shared/phones';
import type { CallerPattern, OpeningPeriod, RoutingRule, RoutingRules } from '../types';

/** The Days option's values, with luxon's weekday numbers. */
export const WEEKDAYS = {
	sunday: 7,
	monday: 1,
	tuesday: 2,
	wednesday: 3,
	thursday: 4,
	friday: 5,
	saturday: 6,
} as const;

function fail(node: INode, field: string, problem: string, fix: string): never {
	throw new NodeOperationError(node, `${field}: ${problem}`, { description: fix });
}

function entries(collection: unknown, key: string): IDataObject[] {
	const values = (collection as IDataObject | undefined)?.[key];
	return Array.isArray(values) ? (values as IDataObject[]) : [];
}

/** Comma-, semicolon- or line-separated entries, trimmed. */
function listOf(value: unknown): string[] {
	return String(value ?? '')
		.split(/[,;\n]+/)
		.map((entry) => entry.trim())
		.filter(Boolean);
}

/** One entry of Callers: a number (readPhone) or the start of numbers (`054777*`, `+44*`). */
function callerPattern(entry: string): CallerPattern | string {
	if (entry.endsWith('*')) {
		const start = entry.slice(0, -1).trim();
		if (!/^\+?[\d\s().-]+$/.test(start) || !/\d/.test(start))
			return `"${entry}" is no start of a number (digits before the *)`;
		const digits = start.replace(/\D/g, '');
		return {
			identity: phoneIdentity(digits, DEFAULT_COUNTRY_CODE, start.startsWith('+')),
			prefix: true,
		};
	}
	const reading = readPhone(entry);
	if ('problem' in reading) return notAPhoneNumber(reading);
	return { identity: reading.identity, prefix: false };
}

/** A destination as typed: '' (the number's own routing) or a phone number, checked again when answered. */
function destinationOf(node: INode, field: string, value: unknown): string {
	const text = String(value ?? '').trim();
	if (text === '') return '';
	const reading = readPhone(text);
	if ('problem' in reading)
		fail(
			node,
			field,
			notAPhoneNumber(reading),
			"Write the number to route the calls to, e.g. 0501234567, or leave it empty for the number's own routing.",
		);
	return text;
}

function readRule(node: INode, rule: IDataObject, index: number): RoutingRule {
	const field = `Routing Rules, rule ${index + 1}`;
	const callers: CallerPattern[] = [];
	for (const entry of listOf(rule.callers)) {
		const pattern = callerPattern(entry);
		if (typeof pattern === 'string')
			fail(
				node,
				`${field}, Callers`,
				pattern,
				'Write numbers (0501234567) or the start of numbers followed by * (054777*), separated by commas.',
			);
		callers.push(pattern);
	}
	let dialled: string | undefined;
	const virtualnum = String(rule.virtualnum ?? '').trim();
	if (virtualnum !== '') {
		const reading = readPhone(virtualnum);
		if ('problem' in reading)
			fail(
				node,
				`${field}, Virtual Number`,
				notAPhoneNumber(reading),
				'Write the virtual number the rule is for, or leave it empty for every number.',
			);
		dialled = reading.identity;
	}
	const when = rule.when === 'open' || rule.when === 'closed' ? rule.when : 'always';
	return {
		callers,
		dialled,
		when,
		destination: destinationOf(node, `${field}, Destination`, rule.destination),
	};
}

/** `HH:MM` (24 hours; `24:00` closes at midnight) as minutes after midnight, or undefined. */
function minutesOf(value: unknown): number | undefined {
	const time = /^\s*(\d{1,2}):(\d{2})\s*$/.exec(String(value ?? ''));
	if (!time) return undefined;
	const [hours, minutes] = [Number(time[1]), Number(time[2])];
	if (minutes > 59 || hours > 24 || (hours === 24 && minutes > 0)) return undefined;
	return hours * 60 + minutes;
}

function readPeriod(node: INode, period: IDataObject, index: number): OpeningPeriod {
	const field = `Opening Hours, period ${index + 1}`;
	const days = (Array.isArray(period.days) ? period.days : [])
		.map((day) => WEEKDAYS[day as keyof typeof WEEKDAYS])
		.filter((day): day is (typeof WEEKDAYS)[keyof typeof WEEKDAYS] => day !== undefined);
	if (days.length === 0)
		fail(node, `${field}, Days`, 'choose at least one day', 'Pick the days these hours are for.');
	const opens = minutesOf(period.opens);
	const closes = minutesOf(period.closes);
	if (opens === undefined || closes === undefined)
		fail(
			node,
			field,
			`opening and closing times must be written as HH:MM (got "${String(period.opens)}" and "${String(period.closes)}")`,
			'Write e.g. 08:00 and 17:30 (24-hour clock; 24:00 for midnight).',
		);
	if (closes <= opens)
		fail(
			node,
			field,
			`closes (${String(period.closes)}) before it opens (${String(period.opens)})`,
			'For hours past midnight, add a second period from 00:00 on the next day.',
		);
	return { days, opens, closes };
}

/** The rules of Respond With "Using Routing Rules", checked: a problem fails naming the rule and the field. */
export function readRoutingRules(node: INode, options: IDataObject): RoutingRules {
	const rules = entries(options.routingRules, 'rule').map((rule, index) =>
		readRule(node, rule, index),
	);
	const hours = entries(options.openingHours, 'period').map((period, index) =>
		readPeriod(node, period, index),
	);
	const afterHours = destinationOf(node, 'After-Hours Destination', options.afterHoursDestination);
	return { rules, hours, afterHours };
}

// ---- The rule a call matches ---------------------------------------------------------------

/** Whether the opening hours hold at `at` (ms) in `zone`; no hours set: always open. */
export function isOpen(hours: OpeningPeriod[], at: number, zone: string): boolean {
	if (hours.length === 0) return true;
	const local = DateTime.fromMillis(at, { zone });
	const minute = local.hour * 60 + local.minute;
	return hours.some(
		({ days, opens, closes }) =>
			days.includes(local.weekday as never) && minute >= opens && minute < closes,
	);
}

const identityOf = (value: unknown): string | undefined => {
	const reading = readPhone(value);
	return 'problem' in reading ? undefined : reading.identity;
};

function fits(
	rule: RoutingRule,
	caller: string | undefined,
	dialled: string | undefined,
	open: boolean,
): boolean {
	if ((rule.when === 'open' && !open) || (rule.when === 'closed' && open)) return false;
	if (rule.dialled !== undefined && rule.dialled !== dialled) return false;
	if (rule.callers.length === 0) return true;
	return (
		caller !== undefined &&
		rule.callers.some(({ identity, prefix }) =>
			prefix ? caller.startsWith(identity) : caller === identity,
		)
	);
}

/** Where the rules send a call, and which rule said so; undefined when none does (the number's own routing). */
export function ruleFor(
	rules: RoutingRules,
	call: { callerNumber?: unknown; virtualNumber?: unknown },
	open: boolean,
): { destination: string; rule: string } | undefined {
	const caller = identityOf(call.callerNumber);
	const dialled = identityOf(call.virtualNumber);
	const index = rules.rules.findIndex((rule) => fits(rule, caller, dialled, open));
	if (index >= 0) return { destination: rules.rules[index].destination, rule: `rule ${index + 1}` };
	if (!open) return { destination: rules.afterHours, rule: 'After-Hours Destination' };
	return undefined;
}
