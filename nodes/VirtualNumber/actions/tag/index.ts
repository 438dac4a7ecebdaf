import { operationProperties } from '../../../shared/router';
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

export const operations = {
	addMember,
	create,
	delete: deleteTag,
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

export const description = operationProperties('tag', 'getAll', operations);
