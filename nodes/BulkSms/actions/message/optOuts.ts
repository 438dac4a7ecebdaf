/**
 * Send's Skip Opted-Out Numbers: the numbers that refused further messages, read once per run
 * (from an earlier node's items, an n8n Data Table, or a list an expression gives), matched by
 * phone identity (`0541110010`, `972541110010` and `+972-54-111-0010` are one number, phones.ts).
 */
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { dataTableField, readColumn } from '../../../shared/dataTables';
import { messageOf } from '../../../shared/errors';
import { digitsOf, phoneIdentity, splitPhoneList } from '../../../shared/phones';

const OPTION = 'Skip Opted-Out Numbers';

/** Numbers From: An Earlier Node's Items: which node, and which field of its items. */
const nodeItemsFields: INodeProperties[] = [
	{
		displayName: 'Node Name',
		name: 'nodeName',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Opt-outs',
		description:
			'The earlier node of this workflow (its name on the canvas) whose items hold the numbers. ' +
			'Read once per run.',
		hint: 'Faster than a List mapping the same items with an expression',
		displayOptions: { show: { from: ['nodeItems'] } },
	},
	{
		displayName: 'Field',
		name: 'field',
		type: 'string',
		default: 'phone',
		description: "The field of that node's items holding the number",
		displayOptions: { show: { from: ['nodeItems'] } },
	},
];

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
							name: "An Earlier Node's Items",
							value: 'nodeItems',
							description:
								"A field of every item an earlier node output (e.g. n8n's Data table node), read without an expression",
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
				...nodeItemsFields,
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
			: source.from === 'nodeItems'
				? nodeItemValues(context, String(source.nodeName ?? ''), String(source.field ?? ''))
				: splitPhoneList(source.numbers);
	const identities = new Set<string>();
	for (const value of values) {
		const digits = digitsOf(value);
		if (digits) identities.add(phoneIdentity(digits, countryCode));
	}
	return identities;
}

/** What n8n's `$(name)` gives in a node's own code (`getWorkflowDataProxy`): the node's output items. */
interface NodeItemsProxy {
	$(name: string): { all(): Array<{ json: IDataObject }> };
}

/**
 * The field of every item an earlier node output, read in the node's code: n8n 2.x evaluates an
 * expression in an isolate, and mapping 50,000 items there costs about twice the whole read
 * (docs/benchmarks.md). A field no item has (a typo) would skip no one, so it fails instead;
 * the empty item n8n's Always Output Data gives for no rows is no item.
 */
function nodeItemValues(context: IExecuteFunctions, nodeName: string, field: string): unknown[] {
	const name = nodeName.trim();
	const key = field.trim();
	const refuse = (message: string, fix: string) =>
		new NodeOperationError(context.getNode(), `${OPTION}: ${message}`, {
			itemIndex: 0,
			description: `Nothing was sent. ${fix}`,
		});
	const nameFix =
		'Set Node Name to an earlier node of this workflow, connected before Send, as named on the canvas.';
	if (name === '' || key === '') throw refuse('Node Name and Field are required', nameFix);
	let items: Array<{ json: IDataObject }>;
	try {
		items = (context.getWorkflowDataProxy(0) as unknown as NodeItemsProxy).$(name).all();
	} catch (error) {
		throw refuse(`cannot read the items of the node "${name}": ${messageOf(error)}`, nameFix);
	}
	const values = new Array<unknown>(items.length);
	let found = false;
	for (let index = 0; index < items.length; index++) {
		const { json } = items[index];
		if (!Object.prototype.hasOwnProperty.call(json, key)) continue;
		values[index] = json[key];
		found = true;
	}
	const rows = found ? 0 : items.filter((item) => Object.keys(item.json).length > 0).length;
	if (rows > 0)
		throw refuse(
			`none of the ${rows} items of "${name}" has a field "${key}"`,
			"Set Field to the name of the field holding the numbers, as in that node's output.",
		);
	return values;
}
