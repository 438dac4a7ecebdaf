/** Every event the trigger offers, in the order of its Events list; each one is a file of this folder. */
import { callEnded } from './callEnded';
import { callStarted } from './callStarted';
import { smsDeliveryStatus } from './smsDeliveryStatus';
import { smsReceived } from './smsReceived';

export const TRIGGER_EVENTS = [callStarted, callEnded, smsDeliveryStatus, smsReceived];
