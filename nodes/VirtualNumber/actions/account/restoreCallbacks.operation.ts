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
			'webhook URLs). Empty: triggers of any n8n, also of workflows still active, which then stop ' +
			'receiving calls until activated again.',
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
		description: 'Whether to only list what would be put back, changing nothing',
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
	const candidates = records.filter((record) => onTrigger(record, scope.address));
	const output: IDataObject[] = [];
	for (const record of candidates) {
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

/** Whether the number's callback URL is a trigger's (at the address, when one is given). */
function onTrigger(record: IDataObject, address: string): boolean {
	const url = callbackOf(record).url;
	if (!isTriggerUrl(url)) return false;
	return address === '' || `${baseOf(url).toLowerCase()}/`.startsWith(`${address}/`);
}

/** What the number had before any trigger: the chain of trigger URLs followed back to the first. */
function originalOf(url: string): { callback: Callback; known: boolean } {
	let current = url;
	for (let step = 0; step < MAX_CHAIN && isTriggerUrl(current); step++) {
		const previous = marksOf(current).previous;
		// Registered by version 0.1, which kept the previous URL in the workflow: unknown here.
		if (!previous) return { callback: { url: '', option: DEFAULT_OPTION }, known: false };
		if (!isTriggerUrl(previous.url)) return { callback: previous, known: true };
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
	if (!onTrigger(record, scope.address)) return undefined;
	const before = callbackOf(record);
	const { callback, known } = originalOf(before.url);
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
