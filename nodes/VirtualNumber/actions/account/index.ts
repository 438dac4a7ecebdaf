import { operationProperties } from '../../../shared/router';
import * as restoreCallbacks from './restoreCallbacks.operation';
import * as test from './test.operation';

/** The resource's operations, by their Operation value; the dropdown and fields are derived from them. */
export const operations = { restoreCallbacks, test };

export const description = operationProperties('account', 'test', operations);
