import { operationProperties } from '../../../shared/router';
import * as getBalance from './getBalance.operation';

export const operations = { getBalance };

export const description = operationProperties('credit', 'getBalance', operations);
