import { operationProperties } from '../../../shared/router';
import * as create from './create.operation';
import * as get from './get.operation';
import * as getAll from './getAll.operation';
import * as getAvailable from './getAvailable.operation';
import * as release from './release.operation';
import * as restore from './restore.operation';
import * as update from './update.operation';

export const operations = { create, get, getAll, getAvailable, release, restore, update };

export const description = operationProperties('virtualnum', 'getAll', operations);
