import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { messageOf } from '../../../shared/errors';
import { holdsMask, isMaskedCopyOf, maskSecrets } from '../../../shared/masking';
import { lockNumbers } from '../../../shared/numberLock';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { callbackOf, isTriggerUrl } from '../../../shared/triggerUrl';
import {
	SETTABLE_FIELDS,
	getVirtualnum,
	recordAsShown,
	settingsAsRead,
	updateVirtualnum,
	virtualnumLocator,
} from '../../../shared/virtualnums';
import { readVirtualnum } from '../../helpers/utils';
import { settingsToParams, updateSettingFields } from './numberSettings';

const properties: INodeProperties[] = [
	virtualnumLocator({ description: 'The number to change' }),
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		description:
			'Only the fields added here change. The node reads the number just before it writes and ' +
			'sends every other setting back as read, so none is lost whether the service changes only ' +
			'the values sent or replaces the whole record. A Virtual Number Trigger’s callback URL is ' +
			'never sent back: it stays unless you set Callback URL. A Callback URL given back as Get ' +
			'shows it (its secret masked as ********) keeps the URL the number has.',
		options: updateSettingFields,
	},
];

export const option: OperationOption = {
	name: 'Update',
	description: 'Change settings of a number; only the fields you set change',
	action: 'Update a virtual number',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['virtualnum'], operation: ['update'] } },
	properties,
);

/** A setting the update did not change that differs after it (changed elsewhere, or cleared by the service). */
interface UnexpectedChange {
	field: string;
	before: string | number;
	after: string | number;
	/** The trigger's callback URL the update cleared, put back. */
	restored?: boolean;
}

interface Outcome {
	/** update_virtualnum's answer (versions 1 and 1.1 output it). */
	answer: IDataObject;
	/** The number as read after the update (and after putting a trigger's callback URL back). */
	after: IDataObject;
	unexpected: UnexpectedChange[];
}

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const virtualnum = readVirtualnum.call(this, checks);
	const fields = this.getNodeParameter('updateFields', itemIndex, {}) as IDataObject;
	const changes = settingsToParams(fields, checks);
	if (Object.keys(changes).length === 0) {
		checks.fail('Update Fields', 'has nothing to change: add at least one field with a value');
	}
	const outcome = await lockNumbers(
		this,
		[virtualnum],
		async () => await updateNumber.call(this, virtualnum, changes, checks),
	);
	if (this.getNode().typeVersion < 1.2)
		return this.helpers.returnJsonArray(recordAsShown(outcome.answer));
	return this.helpers.returnJsonArray({
		...recordAsShown(outcome.after),
		unexpectedChanges: outcome.unexpected,
	});
};

/**
 * The changes without a Callback URL given back as the node shows it (mapped from Get: its secret
 * masked): the number keeps the URL it has, the masked text is never written. A masked URL that
 * is not the number's is refused before anything is written: its secret is unknown here.
 */
function withoutMaskedUrl(changes: IDataObject, before: IDataObject, checks: InputChecks) {
	const given = changes.callback_url;
	if (typeof given !== 'string' || !holdsMask(given)) return changes;
	const current = callbackOf(before).url;
	if (given === current) return changes;
	if (!isMaskedCopyOf(given, current))
		checks.fail(
			'Callback URL',
			'holds a masked secret (********) and is not the callback URL the number has: enter the ' +
				'whole URL with its secret, or leave Callback URL out to keep the current one',
			given,
		);
	const kept = { ...changes };
	delete kept.callback_url;
	return kept;
}

/**
 * Read, write, read again, with this process's other changes of the number waiting (numberLock.ts).
 * The read is the last thing before the write, so a change made elsewhere before it is kept.
 */
async function updateNumber(
	this: IExecuteFunctions,
	virtualnum: string,
	requested: IDataObject,
	checks: InputChecks,
): Promise<Outcome> {
	const itemIndex = checks.itemIndex;
	const before = await getVirtualnum.call(this, virtualnum, itemIndex);
	const changes = withoutMaskedUrl(requested, before, checks);
	// Only the URL given back as shown: nothing to change, nothing written.
	if (Object.keys(changes).length === 0) return { answer: before, after: before, unexpected: [] };
	const params = { ...settingsAsRead(before), ...changes };
	// A trigger's URL read here may be stale by the time it is written (its workflow deactivated
	// in another process meanwhile): written back, it would point the number at a dead webhook.
	const triggerUrl = changes.callback_url === undefined && isTriggerUrl(callbackOf(before).url);
	if (triggerUrl) delete params.callback_url;
	const answer = await updateVirtualnum.call(this, virtualnum, params, {
		itemIndex,
		current: before,
	});
	let after = await readAgain.call(this, virtualnum, itemIndex);
	const unexpected = unexpectedChanges(before, after, Object.keys(changes));
	const cleared = unexpected.find((change) => change.field === 'callback_url');
	// The service replaced the whole record and the unsent URL went with it: the trigger's, put back.
	if (triggerUrl && cleared && callbackOf(after).url === '') {
		after = await putTriggerBack.call(this, virtualnum, before, after, itemIndex);
		cleared.restored = true;
	}
	return { answer, after, unexpected };
}

/** Sets the trigger's callback URL and option of `before` again; a failure says what to do. */
async function putTriggerBack(
	this: IExecuteFunctions,
	virtualnum: string,
	before: IDataObject,
	after: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const { url, option } = callbackOf(before);
	const restore = { ...settingsAsRead(after), callback_url: url, callback_url_option: option };
	try {
		const restored = await updateVirtualnum.call(this, virtualnum, restore, {
			itemIndex,
			current: after,
		});
		return { ...after, callback_url: url, callback_url_option: option, ...restored };
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			`The virtual number ${virtualnum} was updated, but the service cleared its Virtual Number ` +
				`Trigger's callback URL and putting it back failed`,
			{
				itemIndex,
				description:
					`${maskSecrets(messageOf(error, { description: true }))}. Calls to the number no longer ` +
					`reach the trigger: deactivate and activate its workflow again to register it anew.`,
			},
		);
	}
}

/** The number after the update; a failure says the update itself was carried out. */
async function readAgain(
	this: IExecuteFunctions,
	virtualnum: string,
	itemIndex: number,
): Promise<IDataObject> {
	try {
		return await getVirtualnum.call(this, virtualnum, itemIndex);
	} catch (error) {
		throw new NodeOperationError(
			this.getNode(),
			`The virtual number ${virtualnum} was updated, but reading it again failed`,
			{
				itemIndex,
				description:
					`update_virtualnum answered success; the check that no other setting changed could not ` +
					`run: ${maskSecrets(messageOf(error))}. Check the number with Get before updating it again.`,
			},
		);
	}
}

function shown(field: string, value: unknown): string | number {
	if (typeof value === 'number') return value;
	const text = value === undefined || value === null ? '' : String(value);
	return field === 'callback_url' ? maskSecrets(text) : text;
}

/** The settable fields the update did not change whose value after it is not the value before it. */
function unexpectedChanges(
	before: IDataObject,
	after: IDataObject,
	changed: string[],
): UnexpectedChange[] {
	const same = (a: unknown, b: unknown) => String(a ?? '').trim() === String(b ?? '').trim();
	return SETTABLE_FIELDS.filter(
		(field) => !changed.includes(field) && !same(before[field], after[field]),
	).map((field) => ({
		field,
		before: shown(field, before[field]),
		after: shown(field, after[field]),
	}));
}
