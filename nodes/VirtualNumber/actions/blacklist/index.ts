import { operationProperties } from '../../../shared/router';
import * as add from './add.operation';
import * as getAll from './getAll.operation';
import * as remove from './remove.operation';

/** The resource's operations, by their Operation value; the dropdown and fields are derived from them. */
export const operations = { add, getAll, remove };

export const description = operationProperties('blacklist', 'getAll', operations);
