import { operationProperties } from '../../../shared/router';
import * as restoreCallbacks from './restoreCallbacks.operation';
import * as test from './test.operation';

export const operations = { restoreCallbacks, test };

export const description = operationProperties('account', 'test', operations);
