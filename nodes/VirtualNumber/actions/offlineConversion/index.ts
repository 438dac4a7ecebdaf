import { operationProperties } from '../../../shared/router';
import * as get from './get.operation';
import * as set from './set.operation';

/** The resource's operations, by their Operation value; the dropdown and fields are derived from them. */
export const operations = { get, set };

export const description = operationProperties('offlineConversion', 'get', operations);
