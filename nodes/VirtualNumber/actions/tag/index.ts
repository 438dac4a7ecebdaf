import type { INodeProperties } from 'n8n-workflow';

import * as addMember from './addMember.operation';
import * as create from './create.operation';
import * as deleteTag from './delete.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getByName from './getByName.operation';
import * as getForNumber from './getForNumber.operation';
import * as getMemberRecords from './getMemberRecords.operation';
import * as getMembers from './getMembers.operation';
import * as getMembersByName from './getMembersByName.operation';
import * as removeMember from './removeMember.operation';
import * as removeMemberByName from './removeMemberByName.operation';
import * as rename from './rename.operation';

export {
	addMember,
	create,
	deleteTag as delete,
	get,
	getAll,
	getByName,
	getForNumber,
	getMemberRecords,
	getMembers,
	getMembersByName,
	removeMember,
	removeMemberByName,
	rename,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['tag'] } },
		options: [
			{
				name: 'Add Number',
				value: 'addMember',
				description: 'Add a virtual number to a tag (add_member_to_tag)',
				action: 'Add a number to a tag',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a tag (create_tag)',
				action: 'Create a tag',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete a tag (delete_tag)',
				action: 'Delete a tag',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a tag by its ID (view_tag_by_id)',
				action: 'Get a tag',
			},
			{
				name: 'Get by Name',
				value: 'getByName',
				description: 'Get the tags whose name contains a text (view_tag_by_name)',
				action: 'Get tags by name',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many tags, optionally filtered by name (view_tags)',
				action: 'Get many tags',
			},
			{
				name: 'Get Member Records',
				value: 'getMemberRecords',
				description:
					'Get the full records (settings included) of the virtual numbers in a tag (view_virtualnum_members_by_tag_id)',
				action: 'Get the number records of a tag',
			},
			{
				name: 'Get Members',
				value: 'getMembers',
				description: 'Get the virtual numbers in a tag, chosen by ID (get_members_by_tag_id)',
				action: 'Get the numbers in a tag',
			},
			{
				name: 'Get Members by Tag Name',
				value: 'getMembersByName',
				description: 'Get the virtual numbers in a tag, chosen by name (get_members_by_tag_name)',
				action: 'Get the numbers in a tag by tag name',
			},
			{
				name: 'Get Tags of Number',
				value: 'getForNumber',
				description: 'Get the tags a virtual number belongs to (view_tags_by_virtualnum)',
				action: 'Get the tags of a number',
			},
			{
				name: 'Remove Number',
				value: 'removeMember',
				description: 'Remove a virtual number from a tag chosen by ID (remove_member_from_tag_id)',
				action: 'Remove a number from a tag',
			},
			{
				name: 'Remove Number by Tag Name',
				value: 'removeMemberByName',
				description:
					'Remove a virtual number from a tag chosen by name (remove_member_from_tag_name)',
				action: 'Remove a number from a tag by tag name',
			},
			{
				name: 'Rename',
				value: 'rename',
				description: 'Give a tag a new name (update_tag)',
				action: 'Rename a tag',
			},
		],
		default: 'getAll',
	},
	...addMember.description,
	...create.description,
	...deleteTag.description,
	...get.description,
	...getAll.description,
	...getByName.description,
	...getForNumber.description,
	...getMemberRecords.description,
	...getMembers.description,
	...getMembersByName.description,
	...removeMember.description,
	...removeMemberByName.description,
	...rename.description,
];
