import type { INodeProperties } from 'n8n-workflow';

import * as assignNumber from './assignNumber.operation';
import * as create from './create.operation';
import * as deleteUser from './delete.operation';
import * as get from './get.operation';
import * as getAccessLog from './getAccessLog.operation';
import * as getAll from './getAll.operation';
import * as getNumbers from './getNumbers.operation';
import * as unassignNumber from './unassignNumber.operation';
import * as update from './update.operation';

export {
	assignNumber,
	create,
	deleteUser as delete,
	get,
	getAccessLog,
	getAll,
	getNumbers,
	unassignNumber,
	update,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			{
				name: 'Assign Number',
				value: 'assignNumber',
				description: 'Let a user view and manage a virtual number (set_ddi_to_user)',
				action: 'Assign a number to a user',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a user (set_user)',
				action: 'Create a user',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: "Delete a user for good; the user's access tokens stop working (delete_user)",
				action: 'Delete a user',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get a user with permissions and assigned numbers (get_user_by_id)',
				action: 'Get a user',
			},
			{
				name: 'Get Access Log',
				value: 'getAccessLog',
				description:
					'Get the log-ins of the users, newest first, at most 1000 rows (get_users_access_log)',
				action: 'Get the users access log',
			},
			{
				name: 'Get Assigned Numbers',
				value: 'getNumbers',
				description:
					'Get the virtual numbers assigned to a user, with their status (get_ddi_by_user_id)',
				action: 'Get the numbers of a user',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				description: 'Get many users of the account (get_users)',
				action: 'Get many users',
			},
			{
				name: 'Unassign Number',
				value: 'unassignNumber',
				description: 'Take a virtual number away from a user (delete_ddi_from_user_id)',
				action: 'Unassign a number from a user',
			},
			{
				name: 'Update',
				value: 'update',
				description: 'Change a user; only the fields set are sent (update_user)',
				action: 'Update a user',
			},
		],
		default: 'getAll',
	},
	...assignNumber.description,
	...create.description,
	...deleteUser.description,
	...get.description,
	...getAccessLog.description,
	...getAll.description,
	...getNumbers.description,
	...unassignNumber.description,
	...update.description,
];
