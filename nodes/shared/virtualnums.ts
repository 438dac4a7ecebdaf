/**
 * Reading and updating virtual number records, shared by the Virtual Number node and the
 * trigger: paging through get_virtualnum, reading one record, updates that re-send what the
 * service demands on every update, and the number's resource locator with its list search.
 */
import type {
	IDataObject,
	IDisplayOptions,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { maskSecrets } from './masking';
import { readAllPages } from './paging';
import { PHONE_LIMITS, phonePatternSource } from './phones';
import type { RequestContext } from './transport/http';
import { virtualnumRequest, type VirtualnumRequest } from './transport/virtualnumApi';
import type { Callback } from './triggerUrl';

const VIRTUALNUM_PAGE_SIZE = 1000;

export type VirtualnumStatus = 'active' | 'suspended';
const STATUS_PARAM: Record<VirtualnumStatus, number> = { active: 1, suspended: 0 };

/** An operation's result as rows (none for an empty result, one for a single object). */
export function resultRows(result: unknown): IDataObject[] {
	return Array.isArray(result) ? (result as IDataObject[]) : result ? [result as IDataObject] : [];
}

interface PageOptions {
	status: VirtualnumStatus;
	page: number;
	limit?: number;
	itemIndex?: number;
}

/** One page of a general get_virtualnum request (no number, no filter: the only kind the service pages). */
export async function getVirtualnumPage(
	this: RequestContext,
	options: PageOptions,
): Promise<IDataObject[]> {
	const answer = await virtualnumRequest.call(this, {
		service: 'get_virtualnum',
		params: {
			status: STATUS_PARAM[options.status],
			page: options.page,
			limit: options.limit ?? VIRTUALNUM_PAGE_SIZE,
		},
		itemIndex: options.itemIndex,
		noResultsAsEmpty: true,
	});
	return resultRows(answer.result);
}

/** Every number of one status, page by page until a short page (with paging's guards: paging.ts). */
export async function getAllVirtualnums(
	this: RequestContext,
	options: { status: VirtualnumStatus; itemIndex?: number; pageSize?: number },
): Promise<IDataObject[]> {
	const { status, itemIndex } = options;
	const limit = options.pageSize ?? VIRTUALNUM_PAGE_SIZE;
	return await readAllPages({
		node: this.getNode(),
		label: `${status} numbers`,
		operation: 'get_virtualnum',
		pageSize: limit,
		keyOf: (row) => String(row.virtualnum ?? JSON.stringify(row)),
		itemIndex,
		readPage: async (page) =>
			await getVirtualnumPage.call(this, { status, page, limit, itemIndex }),
	});
}

/** The record of one number of the account (any status); fails naming the number when it is not there. */
export async function getVirtualnum(
	this: RequestContext,
	virtualnum: string,
	itemIndex?: number,
): Promise<IDataObject> {
	const answer = await virtualnumRequest.call(this, {
		service: 'get_virtualnum',
		params: { virtualnum },
		itemIndex,
		noResultsAsEmpty: true,
	});
	const record =
		resultRows(answer.result).find((row) => String(row.virtualnum) === virtualnum) ??
		resultRows(answer.result)[0];
	if (!record) {
		throw new NodeOperationError(
			this.getNode(),
			`The virtual number ${virtualnum} is not in this account (get_virtualnum found no record of it)`,
			{
				itemIndex,
				description: 'Pick the number from the list, or check that it was not released.',
			},
		);
	}
	return record;
}

/**
 * A number record as a node outputs it: the secrets of its callback URL masked. A Virtual Number
 * Trigger's URL carries its Secret (`secret=`), with which anyone could forge its calls; a CRM's
 * URL may carry its own token. Every version outputs it so: a secret never lands in execution data
 * or a model's context. Virtual Number → Update takes the masked URL back as "unchanged".
 */
export function recordAsShown(record: IDataObject): IDataObject {
	const url = record.callback_url;
	if (typeof url !== 'string' || url === '') return record;
	const shown = maskSecrets(url);
	return shown === url ? record : { ...record, callback_url: shown };
}

/**
 * update_virtualnum changing only `changes`: the service demands `description` and
 * `call_destination_phone` on every update (else 4012), so missing ones are read from the
 * number's current record and sent again unchanged.
 */
export async function updateVirtualnum(
	this: RequestContext,
	virtualnum: string,
	changes: IDataObject,
	options: { itemIndex?: number; current?: IDataObject } = {},
): Promise<IDataObject> {
	const params: IDataObject = { ...changes, virtualnum };
	if (isEmpty(params.description) || isEmpty(params.call_destination_phone)) {
		const current =
			options.current ?? (await getVirtualnum.call(this, virtualnum, options.itemIndex));
		if (isEmpty(params.description)) params.description = current.description;
		if (isEmpty(params.call_destination_phone))
			params.call_destination_phone = current.call_destination_phone;
	}
	const answer = await virtualnumRequest.call(this, {
		service: 'update_virtualnum',
		params,
		method: 'POST',
		itemIndex: options.itemIndex,
		sideEffect: true,
	});
	return (resultRows(answer.result)[0] ?? {}) as IDataObject;
}

/**
 * The update_virtualnum request that sets a number's callback URL and option, every other settable
 * field sent as read (a service that replaces the whole record on update keeps them all). Empty
 * fields are left out (an empty dial_timeout_in_sec means the account's default, and the service
 * refuses an empty one), but the callback URL is always sent, also empty when restoring a number
 * that had none. Used by the trigger and by Restore Callback URLs.
 */
export function callbackUpdate(record: IDataObject, callback: Callback): VirtualnumRequest {
	const params: IDataObject = { virtualnum: String(record.virtualnum ?? '').trim() };
	Object.assign(params, settingsAsRead(record));
	params.callback_url = callback.url;
	params.callback_url_option = String(callback.option);
	return {
		service: 'update_virtualnum',
		method: 'POST',
		sideEffect: true,
		params,
		sendEmpty: ['callback_url'],
	};
}

/**
 * create_virtualnum's settable fields (docs/api): what update_virtualnum may change. Not here: the
 * number itself and what the service sets (`create_time`, `extenstion`, `default_dest`, `virtualnum_old`).
 */
export const SETTABLE_FIELDS = [
	'description',
	'call_destination_phone',
	'active_status',
	'dial_option',
	'dial_timeout_in_sec',
	'record_option',
	'record_percentage',
	'expose',
	'disallow_callback',
	'callback_url',
	'callback_url_option',
	'greeting_in',
	'greeting_out',
	'ringback_tone',
	'email',
	'sms_destination_phone',
	'working_hours',
	'out_of_time_destination_phone',
	...Array.from({ length: 10 }, (_, index) => `private_field${index + 1}`),
];

/**
 * Every settable field of a record as read. The contract says update_virtualnum changes only the
 * values sent, but integrators observed it replacing the whole record (fields not sent cleared):
 * sending every setting back as read keeps them under both readings.
 */
export function settingsAsRead(record: IDataObject): IDataObject {
	const settings: IDataObject = {};
	for (const field of SETTABLE_FIELDS) {
		const value = record[field];
		if (value !== undefined && value !== null && typeof value !== 'object') settings[field] = value;
	}
	return settings;
}

function isEmpty(value: unknown): boolean {
	return value === undefined || value === null || String(value).trim() === '';
}

/**
 * Resource-locator search over the account's numbers: active first, then suspended; filter on
 * number or description.
 */
export async function searchVirtualnums(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const [statusText, pageText] = (paginationToken ?? 'active:0').split(':');
	const status: VirtualnumStatus = statusText === 'suspended' ? 'suspended' : 'active';
	const page = Number(pageText) || 0;
	const batch = await getVirtualnumPage.call(this, { status, page });
	const needle = (filter ?? '').trim().toLowerCase();
	const results = batch
		.filter(
			(row) =>
				!needle ||
				String(row.virtualnum ?? '').includes(needle) ||
				String(row.description ?? '')
					.toLowerCase()
					.includes(needle),
		)
		.map((row) => ({
			name:
				String(row.virtualnum) +
				(row.description ? ` — ${String(row.description)}` : '') +
				(status === 'suspended' ? ' (suspended)' : ''),
			value: String(row.virtualnum),
		}));
	const next =
		batch.length === VIRTUALNUM_PAGE_SIZE
			? `${status}:${page + 1}`
			: status === 'active'
				? 'suspended:0'
				: undefined;
	return { results, paginationToken: next };
}

/** Locator field for a number of the account: picked from the list (searchVirtualnums) or typed. */
export function virtualnumLocator(options: {
	name?: string;
	displayName?: string;
	description?: string;
	required?: boolean;
	displayOptions?: IDisplayOptions;
	searchListMethod?: string;
}): INodeProperties {
	return {
		displayName: options.displayName ?? 'Virtual Number',
		name: options.name ?? 'virtualnum',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: options.required ?? true,
		description: options.description ?? 'The virtual number of the account',
		...(options.displayOptions ? { displayOptions: options.displayOptions } : {}),
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a number...',
				typeOptions: {
					searchListMethod: options.searchListMethod ?? 'searchVirtualnums',
					searchable: true,
				},
			},
			{
				displayName: 'Number',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. 97235551234',
				validation: [
					{
						type: 'regex',
						properties: {
							regex: phonePatternSource(PHONE_LIMITS.virtualnumMinDigits),
							errorMessage: `Enter a phone number of ${PHONE_LIMITS.virtualnumMinDigits} to ${PHONE_LIMITS.maxDigits} digits`,
						},
					},
				],
			},
		],
	};
}
