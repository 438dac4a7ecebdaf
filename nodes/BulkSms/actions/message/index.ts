import { operationProperties } from '../../../shared/router';
import * as send from './send.operation';
import * as sendAndWait from './sendAndWait.operation';

export const operations = { send, sendAndWait };

export const description = operationProperties('message', 'send', operations);
