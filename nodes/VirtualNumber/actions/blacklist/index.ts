import { operationProperties } from '../../../shared/router';
import * as add from './add.operation';
import * as getAll from './getAll.operation';
import * as remove from './remove.operation';

export const operations = { add, getAll, remove };

export const description = operationProperties('blacklist', 'getAll', operations);
