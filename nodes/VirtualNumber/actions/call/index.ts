import { operationProperties } from '../../../shared/router';
import * as clickToCall from './clickToCall.operation';
import * as createLink from './createLink.operation';
import * as routeIncomingCall from './routeIncomingCall.operation';
import * as twoLegCall from './twoLegCall.operation';

export const operations = { clickToCall, createLink, routeIncomingCall, twoLegCall };

export const description = operationProperties('call', 'clickToCall', operations);
