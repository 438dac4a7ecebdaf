import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { messageOf } from '../../../shared/errors';
import { maskSecrets } from '../../../shared/masking';
import { lockNumbers } from '../../../shared/numberLock';
import { checkVirtualnum, splitPhoneList } from '../../../shared/phones';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import {
	DEFAULT_OPTION,
	baseOf,
	callbackOf,
	isTriggerUrl,
	marksOf,
	type Callback,
} from '../../../shared/triggerUrl';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { callbackUpdate, getAllVirtualnums, getVirtualnum } from '../../../shared/virtualnums';

const properties: INodeProperties[] = [
	{
		displayName: 'Instance Address',
		name: 'n8nAddress',
		type: 'string',
		default: '',
		placeholder: 'e.g. https://n8n.example.com',
		description:
			'Only numbers whose callback URL is a trigger of the n8n at this address (the start of its ' +
			'webhook URLs). Empty: the URLs that carry the restore data a trigger writes, of any n8n, also ' +
			'of workflows still active, which then stop receiving calls until activated again. A URL that ' +
			'only looks like a trigger’s is changed only under this address.',
	},
	{
		displayName: 'Numbers',
		name: 'numbers',
		type: 'string',
		default: '',
		placeholder: 'e.g. 0722000100, 0722000101',
		description: 'Only these numbers, separated by commas. Empty: every number of the account.',
	},
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: false,
		description:
			'Whether to only list what would be put back, and the URLs that look like a trigger’s but ' +
			'are left alone with why, changing nothing',
	},
];

export const option: OperationOption = {
	name: 'Restore Callback URLs',
	description:
		'Put back the callback URLs that Virtual Number Triggers replaced (after an uninstall)',
	action: 'Restore callback URLs',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['restoreCallbacks'] } },
	properties,
);

/** How far a chain of trigger URLs (one kept inside another) is followed back. */
const MAX_CHAIN = 5;

interface Scope {
	address: string;
	numbers?: string[];
	dryRun: boolean;
}

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const scope = readScope.call(this, itemIndex);
	const records = await recordsIn.call(this, scope, itemIndex);
	// Version 1.3 on, Dry Run also lists the trigger-like URLs it would leave alone, and why.
	const listLeftAlone = scope.dryRun && this.getNode().typeVersion >= 1.3;
	const output: IDataObject[] = [];
	for (const record of records) {
		const ownership = ownershipOf(callbackOf(record).url, scope.address);
		if (ownership === undefined) continue;
		if (!ownership.ours) {
			if (listLeftAlone) output.push(leftAlone(record, ownership.why));
			continue;
		}
		const number = String(record.virtualnum);
		try {
			const item = await lockNumbers(
				this,
				[number],
				async () => await restoreOne.call(this, number, scope, itemIndex),
			);
			if (item) output.push(item);
		} catch (error) {
			throw partialFailure.call(this, number, error, output, itemIndex);
		}
	}
	return this.helpers.returnJsonArray(output);
};

function readScope(this: IExecuteFunctions, itemIndex: number): Scope {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const address = String(this.getNodeParameter('n8nAddress', itemIndex, '') ?? '').trim();
	if (address !== '' && !/^https?:\/\/[^\s/]+/i.test(address))
		checks.fail('Instance Address', 'must start with http:// or https://', address);
	const listed = splitPhoneList(this.getNodeParameter('numbers', itemIndex, ''));
	return {
		address: address.replace(/\/+$/, '').toLowerCase(),
		numbers:
			listed.length > 0
				? [...new Set(listed.map((number) => checkVirtualnum(checks, 'Numbers', number)))]
				: undefined,
		dryRun: this.getNodeParameter('dryRun', itemIndex, false) === true,
	};
}

/** The chosen numbers (each must be in the account), or every number, active and suspended. */
async function recordsIn(
	this: IExecuteFunctions,
	scope: Scope,
	itemIndex: number,
): Promise<IDataObject[]> {
	if (scope.numbers) {
		const records: IDataObject[] = [];
		for (const number of scope.numbers)
			records.push(await getVirtualnum.call(this, number, itemIndex));
		return records;
	}
	const active = await getAllVirtualnums.call(this, { status: 'active', itemIndex });
	const suspended = await getAllVirtualnums.call(this, { status: 'suspended', itemIndex });
	const seen = new Set<string>();
	return [...active, ...suspended].filter((record) => {
		const number = String(record.virtualnum ?? '');
		if (number === '' || seen.has(number)) return false;
		seen.add(number);
		return true;
	});
}

/** Whether a URL is proven this n8n's trigger's, or why it is left alone. */
type Ownership = { ours: true } | { ours: false; why: string };
const OURS: Ownership = { ours: true };
/** Why Dry Run leaves a URL alone, in the user's words. */
const MARK_WITHOUT_PREVIOUS =
	"it has a Virtual Number Trigger's mark (vnt=) but no readable previous callback (vnt_prev=)";
const SHAPE_ONLY =
	"it only has the shape of a Virtual Number Trigger's URL (…/<id>/webhook), without the " +
	'restore data a trigger writes into its URL (vnt=)';
const SET_ADDRESS = "set Instance Address to this n8n's address to restore it if it is";

/**
 * What proves a callback URL is a Virtual Number Trigger's that this operation may replace: it is
 * under the Instance Address, or (no address given) it carries the restore data a trigger writes
 * (`vnt=` and a readable `vnt_prev=`: triggerUrl.ts). A URL that only has a trigger's shape, such
 * as a CRM's `https://hooks.crm.example/<uuid>/webhook`, is never enough: the number may report
 * to someone else. Undefined for a URL with nothing of a trigger's (not listed at all).
 */
function ownershipOf(url: string, address: string): Ownership | undefined {
	if (!isTriggerUrl(url)) return undefined;
	if (address !== '') {
		if (`${baseOf(url).toLowerCase()}/`.startsWith(`${address}/`)) return OURS;
		return { ours: false, why: `it is not under the Instance Address (${address})` };
	}
	const { mode, previous } = marksOf(url);
	if (mode !== undefined && previous !== undefined) return OURS;
	const seen = mode !== undefined ? MARK_WITHOUT_PREVIOUS : SHAPE_ONLY;
	return { ours: false, why: `${seen}, so nothing proves it is this n8n's: ${SET_ADDRESS}` };
}

/** A number Dry Run leaves alone, with why. */
function leftAlone(record: IDataObject, why: string): IDataObject {
	const before = callbackOf(record);
	return {
		virtualnum: String(record.virtualnum),
		restored: false,
		leftAlone: true,
		reason: `Left alone: ${why}.`,
		before: { callback_url: maskSecrets(before.url), callback_url_option: before.option },
	};
}

/**
 * What the number had before any trigger: the chain of trigger URLs, each kept inside the next,
 * followed back while they are proven ours (ownershipOf); the first URL that is not is put back.
 */
function originalOf(url: string, address: string): { callback: Callback; known: boolean } {
	let current = url;
	for (let step = 0; step < MAX_CHAIN; step++) {
		const previous = marksOf(current).previous;
		// Registered by version 0.1, which kept the previous URL in the workflow: unknown here.
		if (!previous) return { callback: { url: '', option: DEFAULT_OPTION }, known: false };
		if (ownershipOf(previous.url, address)?.ours !== true)
			return { callback: previous, known: true };
		current = previous.url;
	}
	return { callback: { url: '', option: DEFAULT_OPTION }, known: false };
}

/**
 * One number, read again inside the lock (a trigger may have been deactivated meanwhile): its
 * original callback put back, or in a dry run only described. Undefined when there is nothing to do.
 */
async function restoreOne(
	this: IExecuteFunctions,
	number: string,
	scope: Scope,
	itemIndex: number,
): Promise<IDataObject | undefined> {
	const record = await getVirtualnum.call(this, number, itemIndex);
	const before = callbackOf(record);
	if (ownershipOf(before.url, scope.address)?.ours !== true) return undefined;
	const { callback, known } = originalOf(before.url, scope.address);
	if (!scope.dryRun)
		await virtualnumRequest.call(this, { ...callbackUpdate(record, callback), itemIndex });
	return {
		virtualnum: number,
		restored: !scope.dryRun,
		before: { callback_url: maskSecrets(before.url), callback_url_option: before.option },
		after: { callback_url: maskSecrets(callback.url), callback_url_option: callback.option },
		previousKnown: known,
	};
}

function partialFailure(
	this: IExecuteFunctions,
	number: string,
	error: unknown,
	done: IDataObject[],
	itemIndex: number,
): NodeOperationError {
	const restored = done.map((item) => String(item.virtualnum));
	const why = maskSecrets(messageOf(error, { description: true }));
	return new NodeOperationError(
		this.getNode(),
		`Could not restore the callback URL of ${number}: ${why}`,
		{
			itemIndex,
			description:
				`${restored.length > 0 ? `Restored before it: ${restored.join(', ')}. ` : ''}Run the operation ` +
				`again: it only changes numbers whose callback URL is still a trigger's, so nothing is done twice.`,
		},
	);
}
