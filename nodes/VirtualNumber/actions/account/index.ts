import { operationProperties } from '../../../shared/router';
import * as test from './test.operation';

export const operations = { test };

export const description = operationProperties('account', 'test', operations);
