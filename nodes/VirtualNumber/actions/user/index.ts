import { operationProperties } from '../../../shared/router';
import * as assignNumber from './assignNumber.operation';
import * as create from './create.operation';
import * as deleteUser from './delete.operation';
import * as get from './get.operation';
import * as getAccessLog from './getAccessLog.operation';
import * as getAll from './getAll.operation';
import * as getNumbers from './getNumbers.operation';
import * as unassignNumber from './unassignNumber.operation';
import * as update from './update.operation';

export const operations = {
	assignNumber,
	create,
	delete: deleteUser,
	get,
	getAccessLog,
	getAll,
	getNumbers,
	unassignNumber,
	update,
};

export const description = operationProperties('user', 'getAll', operations);
