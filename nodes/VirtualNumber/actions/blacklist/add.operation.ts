import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks, LIMITS } from '../../../shared/checks';
import type { ItemOperation } from '../../../shared/router';
import { virtualnumRequest } from '../../../shared/transport/virtualnumApi';
import { writeOutput } from '../user/fields';
import { callerNumberField, readCallerNumber, readScope, scopeFields } from './fields';

const show = { resource: ['blacklist'], operation: ['add'] };
const NOTE_MAX = LIMITS.blacklistNote.maxLength;

export const description: INodeProperties[] = [
	callerNumberField(show, 'The number to block; the service drops formatting characters'),
	...scopeFields(show, 'Block For', 'Block the caller on every number of the account, or only on one'),
	{
		displayName: 'Note',
		name: 'note',
		type: 'string',
		default: '',
		placeholder: 'e.g. Spam caller',
		description: 'Why the number is blocked',
		hint: `The service keeps only the first ${NOTE_MAX} characters; the output says when the note was cut`,
		displayOptions: { show },
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const callerNumber = readCallerNumber.call(this, check);
	const virtualnum = readScope.call(this, check);
	const note = String(this.getNodeParameter('note', itemIndex, ''));
	const answer = await virtualnumRequest.call(this, {
		service: 'add_number_to_blacklist',
		params: { caller_number: callerNumber, virtualnum, note },
		method: 'POST',
		itemIndex,
		sideEffect: true,
	});
	const characters = [...note];
	const echo: IDataObject = {
		caller_number: callerNumber,
		scope: virtualnum ? 'virtualnum' : 'global',
		virtualnum,
		note: characters.slice(0, NOTE_MAX).join(''),
	};
	const output = writeOutput(answer, echo);
	if (characters.length > NOTE_MAX) {
		output.note_truncated = true;
		output.notice = `The note had ${characters.length} characters; the service keeps only the first ${NOTE_MAX}`;
	}
	return this.helpers.returnJsonArray(output);
};
