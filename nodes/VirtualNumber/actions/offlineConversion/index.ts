import { operationProperties } from '../../../shared/router';
import * as get from './get.operation';
import * as set from './set.operation';

export const operations = { get, set };

export const description = operationProperties('offlineConversion', 'get', operations);
