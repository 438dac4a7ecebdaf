/**
 * Send's Skip Opted-Out Numbers: the numbers that refused further messages, read once per run
 * (from an n8n Data Table, or a list an expression gives), matched by phone identity
 * (`0541110010`, `972541110010` and `+972-54-111-0010` are one number, phones.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { dataTableField, readColumn } from '../../../shared/dataTables';
import { digitsOf, phoneIdentity, splitPhoneList } from '../../../shared/phones';

const OPTION = 'Skip Opted-Out Numbers';

export const optOutsOption: INodeProperties = {
	displayName: OPTION,
	name: 'optOuts',
	type: 'fixedCollection',
	default: {},
	placeholder: 'Add Opted-Out Numbers',
	description:
		'Numbers that refused further messages get no message: each gets an item "Not sent: opted out". ' +
		'Matched however the number is written (0541110010 and +972-54-111-0010 are one number).',
	options: [
		{
			displayName: 'Opted-Out Numbers',
			name: 'source',
			values: [
				{
					displayName: 'Numbers From',
					name: 'from',
					type: 'options',
					default: 'list',
					options: [
						{
							name: 'List',
							value: 'list',
							description: "Numbers typed, or an expression reading an earlier node's items",
						},
						{
							name: 'Data Table',
							value: 'dataTable',
							description:
								'A column of an n8n Data Table (where n8n lets community nodes read Data Tables)',
						},
					],
				},
				{
					displayName: 'Numbers',
					name: 'numbers',
					type: 'string',
					default: '',
					placeholder: "e.g. {{ $('Get Opt-Outs').all().map(item => item.json.phone) }}",
					description:
						'Numbers separated by commas or new lines, or an array from an expression. Read once per run.',
					hint:
						'n8n 2.40 lets only its own Data table node read Data Tables: read the table with ' +
						'it (Get, Return All) and map its numbers here',
					displayOptions: { show: { from: ['list'] } },
				},
				{
					...dataTableField({
						displayName: 'Data Table',
						name: 'dataTable',
						description: 'The table holding the opted-out numbers. Read once per run.',
					}),
					displayOptions: { show: { from: ['dataTable'] } },
				},
				{
					displayName: 'Column',
					name: 'column',
					type: 'string',
					default: 'phone',
					description: 'The column holding the numbers',
					displayOptions: { show: { from: ['dataTable'] } },
				},
			],
		},
	],
};

/** A resource locator's value, or the value itself. */
function tableId(value: unknown): string {
	const locator = value as { value?: unknown } | undefined;
	return String(locator && typeof locator === 'object' ? (locator.value ?? '') : (value ?? ''));
}

/**
 * The identities of the opted-out numbers, or undefined when the option is not set. A value that
 * holds no digit (a note, an empty cell) is no number and matches nothing.
 */
export async function readOptOuts(
	context: IExecuteFunctions,
	raw: unknown,
	countryCode: string,
): Promise<Set<string> | undefined> {
	const source = (raw as IDataObject | undefined)?.source as IDataObject | undefined;
	if (!source) return undefined;
	const values =
		source.from === 'dataTable'
			? await readColumn(context, {
					table: tableId(source.dataTable),
					column: String(source.column ?? '').trim(),
					option: OPTION,
					itemIndex: 0,
				})
			: splitPhoneList(source.numbers);
	const identities = new Set<string>();
	for (const value of values) {
		const digits = digitsOf(value);
		if (digits) identities.add(phoneIdentity(digits, countryCode));
	}
	return identities;
}
