/**
 * Version 0.1's records: that version kept each number's previous callback in the workflow's static
 * data (`registrations`, by the trigger's URL) instead of inside the URL it registered. They are
 * read to restore the numbers it registered, and forgotten once the numbers' URLs carry them.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';

import { DEFAULT_OPTION, text } from './callbackUrl';
import type { Callback } from './types';

interface LegacyRegistration {
	numbers?: Record<string, { previousUrl?: string; previousOption?: number }>;
}

function legacyRegistrations(this: IHookFunctions): Record<string, LegacyRegistration> | undefined {
	const saved = (this.getWorkflowStaticData('node') as IDataObject).registrations;
	return saved && typeof saved === 'object'
		? (saved as Record<string, LegacyRegistration>)
		: undefined;
}

/** What version 0.1 remembered of each number it registered at this URL. */
export function legacyFor(this: IHookFunctions, base: string): Map<string, Callback> {
	const registration = legacyRegistrations.call(this)?.[base];
	const numbers = Object.entries(registration?.numbers ?? {});
	return new Map(
		numbers.map(([number, saved]) => [
			number,
			{ url: text(saved.previousUrl), option: Number(saved.previousOption) || DEFAULT_OPTION },
		]),
	);
}

/** Forgets version 0.1's records at this URL, but for the numbers still to restore. */
export function dropLegacy(this: IHookFunctions, base: string, keep: string[] = []): void {
	const all = legacyRegistrations.call(this);
	if (!all?.[base]) return;
	const copy = JSON.parse(JSON.stringify(all)) as Record<string, LegacyRegistration>;
	const numbers = copy[base].numbers ?? {};
	for (const number of Object.keys(numbers)) if (!keep.includes(number)) delete numbers[number];
	if (Object.keys(numbers).length === 0) delete copy[base];
	const data = this.getWorkflowStaticData('node');
	// The whole object is replaced, so n8n sees the change and saves it.
	if (Object.keys(copy).length === 0) delete data.registrations;
	else data.registrations = copy;
}
