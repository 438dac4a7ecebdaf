/**
 * SMS Delivery Status: the SMS service reports a message's delivery to the Delivery Report URL the
 * message was sent with. Nothing is registered on the service for it (no callbackOption).
 */
import type { IDataObject } from 'n8n-workflow';

import { CAMPAIGN_ID_PARAMETER } from '../../../shared/campaignId';
import type { TriggerEvent } from '../../types';

/** The names (lower-case) a delivery report may carry each field under, most specific first. */
export const SMS_FIELDS = {
	messageId: ['message_id', 'messageid', 'msg_id', 'msgid'],
	recipient: ['dest', 'recipient', 'phone', 'destination', 'to'],
	sender: ['sender', 'from'],
	deliveryStatus: ['status', 'delivery_status', 'dlr_status', 'dlr'],
	statusTime: ['status_time', 'delivery_time'],
	sendTime: ['sendtime', 'send_time'],
} as const;

export const smsDeliveryStatus: TriggerEvent = {
	key: 'smsDelivery',
	name: 'sms.delivery',
	option: {
		name: 'SMS Delivery Status',
		value: 'smsDelivery',
		description:
			"The SMS service reports the delivery status of a message sent with this trigger's URL as its Delivery " +
			'Report URL',
	},
	words: [
		'sms',
		'smsdelivery',
		'delivery',
		'dlr',
		'smsdlr',
		'deliveryreport',
		'smsstatus',
		'deliverystatus',
	],
	read: (fields) => {
		const item: IDataObject = {};
		for (const [key, names] of Object.entries(SMS_FIELDS)) item[key] = fields.pick(names);
		// Only in reports of messages Send tagged (Campaign options): other reports keep their shape.
		const campaignId = fields.pick([CAMPAIGN_ID_PARAMETER.toLowerCase()]);
		if (campaignId !== null) item.campaignId = campaignId;
		return item;
	},
};
