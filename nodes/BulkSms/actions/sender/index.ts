import { operationProperties } from '../../../shared/router';
import * as addText from './addText.operation';
import * as list from './list.operation';
import * as requestPhoneVerification from './requestPhoneVerification.operation';
import * as verifyPhone from './verifyPhone.operation';

export const operations = { addText, list, requestPhoneVerification, verifyPhone };

export const description = operationProperties('sender', 'list', operations);
