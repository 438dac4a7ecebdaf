import type {
	IDataObject,
	IExecuteFunctions,
	INodeProperties,
	NodeExecutionHint,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import type { ItemOperation, OperationOption } from '../../../shared/router';
import { addRunHint } from '../../../shared/n8nCompat';
import { sendWrite, writeOutput } from '../../helpers/utils';
import { VN_LIMITS } from '../../../shared/limits';
import { blockEcho, callerNumberField, readCallerNumber, readScope, scopeFields } from './fields';

const NOTE_MAX = VN_LIMITS.blacklistNote.maxLength;

const properties: INodeProperties[] = [
	{
		...callerNumberField,
		description: 'The number to block; the service drops formatting characters',
	},
	...scopeFields('Block For', 'Block the caller on every number of the account, or only on one'),
	{
		displayName: 'Note',
		name: 'note',
		type: 'string',
		default: '',
		placeholder: 'e.g. Spam caller',
		description: 'Why the number is blocked',
		hint: `The service keeps only the first ${NOTE_MAX} characters; the run says when a note was cut`,
	},
];

export const option: OperationOption = {
	name: 'Add',
	description: 'Block a caller on all numbers or on one virtual number (add_number_to_blacklist)',
	action: 'Add a number to the blacklist',
};

export const description = updateDisplayOptions(
	{ show: { resource: ['blacklist'], operation: ['add'] } },
	properties,
);

/** The hint of a run whose notes were cut (one per run, naming every item) and those items. */
const cutNotes = new WeakMap<IExecuteFunctions, { hint: NodeExecutionHint; items: number[] }>();

/** Tells the run, not the item, that the service keeps only the first NOTE_MAX characters of this item's note. */
function hintNoteCut(context: IExecuteFunctions, itemIndex: number, length: number): void {
	let cut = cutNotes.get(context);
	if (!cut) {
		cut = { hint: { message: '', type: 'warning', location: 'outputPane' }, items: [] };
		// n8n reads the hint when the node has run: later items change its message in place.
		if (!addRunHint(context, cut.hint)) return;
		cutNotes.set(context, cut);
	}
	cut.items.push(itemIndex);
	const items =
		cut.items.length === 1
			? `item ${itemIndex} (${length} characters)`
			: `items ${cut.items.join(', ')}`;
	cut.hint.message =
		`The blacklist keeps only the first ${NOTE_MAX} characters of a note: the ` +
		`note of ${items} was cut (its output has note_truncated: true)`;
}

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const checks = new InputChecks(this.getNode(), itemIndex);
	const callerNumber = readCallerNumber.call(this, checks);
	const virtualnum = readScope.call(this, checks);
	const note = String(this.getNodeParameter('note', itemIndex, ''));
	const answer = await sendWrite.call(
		this,
		'add_number_to_blacklist',
		{ caller_number: callerNumber, virtualnum, note },
		itemIndex,
	);
	const characters = [...note];
	const echo: IDataObject = {
		...blockEcho(callerNumber, virtualnum),
		note: characters.slice(0, NOTE_MAX).join(''),
	};
	const output = writeOutput(answer, echo);
	if (characters.length > NOTE_MAX) {
		output.note_truncated = true;
		hintNoteCut(this, itemIndex, characters.length);
	}
	return this.helpers.returnJsonArray(output);
};
