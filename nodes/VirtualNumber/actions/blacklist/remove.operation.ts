import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeApiError, updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { asNodeError, serviceCodeOf } from '../../../shared/errors';
import { samePhone } from '../../../shared/phones';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { resultRows } from '../../../shared/virtualnums';
import { sendWrite, writeOutput } from '../../helpers/utils';
import { blockEcho, callerNumberField, readCallerNumber, readScope, scopeFields } from './fields';

/** remove_number_from_blacklist: the number is not in the list (as asked). */
const NOT_FOUND = 2012;

const properties: INodeProperties[] = [
	{ ...callerNumberField, description: 'The blocked number to unblock' },
	...scopeFields(
		'Blocked For',
		'Where the block applies: a block added for one virtual number can only be removed by naming that number',
	),
];

export const option: OperationOption = {
	name: 'Remove',
	description: 'Unblock a caller (remove_number_from_blacklist)',
	action: 'Remove a number from the blacklist',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['blacklist'], operation: ['remove'] } },
	properties,
);

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const callerNumber = readCallerNumber.call(this, checks);
	const virtualnum = readScope.call(this, checks);
	try {
		const answer = await sendWrite.call(
			this,
			'remove_number_from_blacklist',
			{ caller_number: callerNumber, virtualnum },
			itemIndex,
		);
		return this.helpers.returnJsonArray({
			...writeOutput(answer, blockEcho(callerNumber, virtualnum)),
			removed: true,
		});
	} catch (error) {
		if (error instanceof NodeApiError && serviceCodeOf(error) === NOT_FOUND) {
			await explainNotFound.call(this, error, callerNumber, virtualnum, itemIndex);
		}
		throw asNodeError(this.getNode(), error, itemIndex);
	}
};

/** On 2012, looks the caller up and tells where it is blocked, if anywhere, and what to set. */
async function explainNotFound(
	this: IExecuteFunctions,
	error: NodeApiError,
	callerNumber: string,
	virtualnum: string,
	itemIndex: number,
): Promise<void> {
	let entries: IDataObject[];
	try {
		const answer = await virtualnumRequest.call(this, {
			service: 'get_blacklist',
			params: { caller_number: callerNumber },
			itemIndex,
			noResultsAsEmpty: true,
		});
		entries = resultRows(answer.result);
	} catch {
		return; // the explanation is a courtesy: the original error stands
	}
	const same = entries.filter((entry) =>
		samePhone(String(entry.caller_number ?? ''), callerNumber),
	);
	if (same.length === 0) return;
	const bound = [
		...new Set(same.map((entry) => String(entry.virtualnum ?? '').trim()).filter(Boolean)),
	];
	const global = same.some((entry) => String(entry.virtualnum ?? '').trim() === '');
	const where = [
		global ? 'globally (all virtual numbers)' : '',
		bound.length ? `for the virtual number${bound.length > 1 ? 's' : ''} ${bound.join(', ')}` : '',
	]
		.filter(Boolean)
		.join(' and ');
	const fix = virtualnum
		? global
			? 'set Blocked For to "All Virtual Numbers" to remove the global block'
			: `pick ${bound.join(' or ')} as the Virtual Number`
		: `set Blocked For to "One Virtual Number" and pick ${bound.join(' or ')}`;
	const notFor = virtualnum ? `, not for ${virtualnum}` : ', not globally';
	error.description =
		`${error.description ?? ''} The caller ${callerNumber} is blocked ${where}${notFor}: ${fix}.`.trim();
}
