/** The tag resource's own fields: tags chosen by ID or by name, and the Additional Parameters list. */
import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { locatorValue } from '../../helpers/utils';

export const tagRLC: INodeProperties = {
	displayName: 'Tag',
	name: 'tagId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The tag, chosen from the list or by its ID',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a tag...',
			typeOptions: { searchListMethod: 'searchTags', searchable: true },
		},
		{
			displayName: 'By ID',
			name: 'id',
			type: 'string',
			placeholder: 'e.g. 12',
			validation: [
				{
					type: 'regex',
					properties: { regex: '^\\d+$', errorMessage: 'A tag ID is a whole number' },
				},
			],
		},
	],
};

export const tagNameRLC: INodeProperties = {
	displayName: 'Tag',
	name: 'tagName',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	required: true,
	description: 'The tag, chosen from the list or by its exact name',
	modes: [
		{
			displayName: 'From List',
			name: 'list',
			type: 'list',
			placeholder: 'Select a tag...',
			typeOptions: { searchListMethod: 'searchTagNames', searchable: true },
		},
		{ displayName: 'By Name', name: 'name', type: 'string', placeholder: 'e.g. Google' },
	],
};

/** A tag name typed as text (Create, Get by Name). */
export function nameField(description: string, placeholder: string): INodeProperties {
	return {
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder,
		description,
	};
}

export function readTagId(this: IExecuteFunctions, checks: InputChecks): string {
	const id = checks.required('Tag', locatorValue.call(this, 'tagId', checks.itemIndex));
	return checks.pattern(
		'Tag',
		id,
		/^\d+$/,
		'must be a tag ID (a whole number): pick the tag from the list',
	);
}

export function readTagName(this: IExecuteFunctions, checks: InputChecks): string {
	return checks.required('Tag', locatorValue.call(this, 'tagName', checks.itemIndex));
}

/** Shown on every tag operation, after its own fields. */
export const additionalParametersField: INodeProperties = {
	displayName: 'Additional Parameters',
	name: 'additionalParameters',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true },
	placeholder: 'Add Parameter',
	default: {},
	description:
		'Extra parameters sent with the request as they are. The service documents ' +
		'the tag operations by name only: use this when it expects a parameter ' +
		'this node does not show.',
	options: [
		{
			displayName: 'Parameter',
			name: 'parameter',
			values: [
				{
					displayName: 'Name',
					name: 'name',
					type: 'string',
					default: '',
					placeholder: 'e.g. tag_color',
				},
				{ displayName: 'Value', name: 'value', type: 'string', default: '' },
			],
		},
	],
};
