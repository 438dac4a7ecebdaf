import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import {
	getAllVirtualnums,
	getVirtualnumPage,
	recordAsShown,
	resultRows,
	type VirtualnumStatus,
} from '../../../shared/virtualnums';
import { readLimit } from '../../helpers/utils';
import { VN_LIMITS } from '../../../shared/limits';
import { returnAllFields } from '../fields';

/**
 * Fields of the number record the service filters by (spec: "for example description,
 * private_field1, email, extenstion").
 */
const FILTER_FIELDS: INodePropertyOptions[] = [
	{ name: 'Callback URL', value: 'callback_url' },
	{ name: 'Create Time', value: 'create_time' },
	{ name: 'Description', value: 'description' },
	{ name: 'Destination Phones', value: 'call_destination_phone' },
	{ name: 'Email', value: 'email' },
	{ name: 'Extension', value: 'extenstion' },
	{ name: 'Out-of-Hours Destination', value: 'out_of_time_destination_phone' },
	...Array.from({ length: VN_LIMITS.privateField.count }, (_, index) => ({
		name: `Private Field ${index + 1}`,
		value: `private_field${index + 1}`,
	})),
	{ name: 'SMS Destination Phone', value: 'sms_destination_phone' },
];

const OPERATORS = ['EQ', 'NE', 'LT', 'GT', 'LIKE'] as const;

/** Limit without Return All: the service returns at most 10,000 numbers a page (spec, get_virtualnum `limit`). */
const GET_MANY_LIMIT = { min: 1, max: 10000 };

const byField = { filterBy: ['field'] };

const properties: INodeProperties[] = [
	{
		displayName: 'Filter',
		name: 'filterBy',
		type: 'options',
		options: [
			{
				name: 'None',
				value: 'none',
				description: 'All numbers of the chosen status, page by page',
			},
			{
				name: 'By Field Value',
				value: 'field',
				description: 'Numbers whose field matches a value',
			},
		],
		default: 'none',
	},
	{
		displayName:
			'With a filter the service returns every matching number at once, of any ' +
			'status and without paging. The node then applies Status and Limit to that ' +
			'answer itself, so both settings still hold.',
		name: 'filterNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: byField },
	},
	{
		displayName: 'Field',
		name: 'filterField',
		type: 'options',
		options: FILTER_FIELDS,
		default: 'description',
		description:
			'Field of the number record to compare. Choose from the list, or specify another field name using an expression.',
		displayOptions: { show: byField },
	},
	{
		displayName: 'Operator',
		name: 'filterOperator',
		type: 'options',
		options: [
			{ name: 'Equals', value: 'EQ' },
			{ name: 'Greater Than', value: 'GT' },
			{ name: 'Less Than', value: 'LT' },
			{
				name: 'Like',
				value: 'LIKE',
				description: 'Pattern match: % stands for any text, _ for one character',
			},
			{ name: 'Not Equals', value: 'NE' },
		],
		default: 'EQ',
		displayOptions: { show: byField },
	},
	{
		displayName: 'Value',
		name: 'filterValue',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. Sales%',
		displayOptions: { show: byField },
	},
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		options: [
			{ name: 'Active', value: 'active' },
			{ name: 'Any', value: 'any', description: 'Active numbers first, then suspended ones' },
			{ name: 'Suspended', value: 'suspended' },
		],
		default: 'active',
		description:
			'Which numbers to return. Sent to the service without a filter; with a ' +
			'filter it is applied by the node to the matches.',
	},
	...returnAllFields(GET_MANY_LIMIT),
];

export const option: OperationOption = {
	name: 'Get Many',
	description: 'List the numbers of the account',
	action: 'Get many virtual numbers',
};

export const toolDescription =
	'List the virtual numbers of the account (active ones by default). Free, changes nothing. Returns per ' +
	'number: virtualnum, description, active_status (1 active, 0 suspended), call_destination_phone (where ' +
	'calls ring), email, extenstion, create_time.';

export { toolOutput } from './toolOutput';

export const description = updateDisplayOptions(
	{ show: { resource: ['virtualnum'], operation: ['getAll'] } },
	properties,
);

function statusesOf(status: string): VirtualnumStatus[] {
	return status === 'any' ? ['active', 'suspended'] : [status as VirtualnumStatus];
}

function hasStatus(row: IDataObject, statuses: VirtualnumStatus[]): boolean {
	const active = Number(row.active_status) === 1;
	return statuses.includes(active ? 'active' : 'suspended');
}

/**
 * Filtered: the service returns every match of any status at once, ignoring status, page and
 * limit; applied here instead.
 */
async function filtered(
	this: IExecuteFunctions,
	checks: InputChecks,
	statuses: VirtualnumStatus[],
	limit: number,
): Promise<IDataObject[]> {
	const itemIndex = checks.itemIndex;
	const field = checks.pattern(
		'Field',
		checks.required('Field', this.getNodeParameter('filterField', itemIndex, '')),
		/^[a-z0-9_]+$/i,
		'must be the name of a field of the number record',
	);
	const operator = checks.oneOf(
		'Operator',
		String(this.getNodeParameter('filterOperator', itemIndex, 'EQ')).toUpperCase(),
		OPERATORS,
	);
	const value = checks.required('Value', this.getNodeParameter('filterValue', itemIndex, ''));
	const answer = await virtualnumRequest.call(this, {
		service: 'get_virtualnum',
		params: { filter_name: field, filter_operator: operator, filter_value: value },
		itemIndex,
		noResultsAsEmpty: true,
	});
	return resultRows(answer.result)
		.filter((row) => hasStatus(row, statuses))
		.slice(0, limit);
}

/** Unfiltered: each status in turn, every page (Return All) or the first page of what is still wanted. */
async function byStatus(
	this: IExecuteFunctions,
	itemIndex: number,
	statuses: VirtualnumStatus[],
	limit: number,
): Promise<IDataObject[]> {
	const numbers: IDataObject[] = [];
	for (const status of statuses) {
		const wanted = limit - numbers.length;
		if (wanted <= 0) break;
		numbers.push(
			...(limit === Infinity
				? await getAllVirtualnums.call(this, { status, itemIndex })
				: await getVirtualnumPage.call(this, { status, page: 0, limit: wanted, itemIndex })),
		);
	}
	return numbers.slice(0, limit);
}

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const filterBy = this.getNodeParameter('filterBy', itemIndex, 'none') as string;
	const status = checks.oneOf(
		'Status',
		String(this.getNodeParameter('status', itemIndex, 'active')),
		['active', 'suspended', 'any'],
	);
	const limit = readLimit.call(this, checks, GET_MANY_LIMIT);
	const numbers =
		filterBy === 'field'
			? await filtered.call(this, checks, statusesOf(status), limit)
			: await byStatus.call(this, itemIndex, statusesOf(status), limit);
	return this.helpers.returnJsonArray(numbers.map(recordAsShown));
};
