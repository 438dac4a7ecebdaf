/**
 * Send's Campaign options: what applies to the whole run rather than to an item (the campaign's
 * ID, the advertisement, the opted-out numbers, the sending window, the output), read once, from
 * the first item, before anything is sent. A workflow without them sends as before.
 */
import { DateTime } from 'luxon';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { DATE_FORMATS, serviceZone } from '../../../shared/dates';
import {
	type Advertisement,
	advertisementOption,
	advertisementText,
	readAdvertisement,
} from './advertisement';
import { readOptOuts, optOutsOption } from './optOuts';
import {
	nextOpening,
	readSendingWindow,
	sendingWindowOptions,
	type SendingWindow,
} from './sendingWindow';

export interface Campaign {
	id: string;
	advertisement?: Advertisement;
	/** Identities of the numbers that opted out (phones.ts). */
	optOuts?: Set<string>;
	window?: SendingWindow;
	/** The service's zone, for the sending window. */
	zone: string;
	summary: boolean;
}

/** What the campaign reads and marks of a message of the run (prepare.ts's Entry). */
interface CampaignEntry {
	identity: string;
	message: { sendtime?: string };
	notSent?: 'optedOut' | 'outsideWindow';
	nextOpening?: string;
}

export const campaignOptions: INodeProperties = {
	displayName: 'Campaign',
	name: 'campaign',
	type: 'collection',
	placeholder: 'Add campaign option',
	default: {},
	description: 'Options of the whole run: read once, from the first item',
	options: [
		advertisementOption,
		{
			displayName: 'Campaign ID',
			name: 'campaignId',
			type: 'string',
			default: '={{ $execution.id }}',
			description:
				'Tags every message of the run: in each output item, and in the Delivery Report URL ' +
				'(campaignId=…), so that SMS Delivery Status reports it. Default: the execution ID.',
		},
		{
			displayName: 'Output',
			name: 'output',
			type: 'options',
			default: 'perRecipient',
			options: [
				{
					name: 'One Item per Recipient',
					value: 'perRecipient',
					description: 'The result of each message, paired to its input item',
				},
				{
					name: 'Summary',
					value: 'summary',
					description:
						'One item for the whole run (counts, credits, first and last message ID); ' +
						'each failed recipient still gets its error item',
				},
			],
		},
		optOutsOption,
		...sendingWindowOptions,
	],
};

/** The Campaign options, read and checked once; undefined when none is set. */
export async function readCampaign(
	context: IExecuteFunctions,
	countryCode: string,
	serviceZoneSetting: unknown,
): Promise<Campaign | undefined> {
	if (context.getInputData().length === 0) return undefined;
	const options = context.getNodeParameter('campaign', 0, {}) as IDataObject;
	if (Object.keys(options).length === 0) return undefined;
	const check = new InputChecks(context.getNode(), 0);
	const window = readSendingWindow(check, options.sendingWindow, options.outsideWindow);
	const id = String(options.campaignId ?? '').trim() || String(context.getExecutionId() ?? '');
	return {
		id,
		advertisement: readAdvertisement(check, options.advertisement),
		optOuts: await readOptOuts(context, options.optOuts, countryCode),
		window,
		zone: window ? serviceZone(check, serviceZoneSetting) : '',
		summary: options.output === 'summary',
	};
}

/** The text that goes out: the message, or the advertisement made of it. */
export function campaignText(message: string, campaign: Campaign | undefined): string {
	return campaign?.advertisement ? advertisementText(message, campaign.advertisement) : message;
}

/**
 * Takes out of the run what the campaign does not send: the opted-out numbers, and (Do Not Send)
 * the messages due outside the sending window; schedules the others due outside it for the next
 * opening. Before any request, so nothing taken out is ever sent or charged.
 */
export function applyCampaign<E extends CampaignEntry>(
	run: { entries: E[] },
	campaign: Campaign,
	now = Date.now(),
): void {
	const { optOuts, window } = campaign;
	if (!optOuts?.size && !window) return;
	const kept: E[] = [];
	const nowInZone = window ? DateTime.fromMillis(now, { zone: campaign.zone }) : undefined;
	for (const entry of run.entries) {
		if (optOuts?.has(entry.identity)) entry.notSent = 'optedOut';
		else if (window && nowInZone) scheduleInWindow(entry, window, nowInZone, campaign.zone);
		if (entry.notSent === undefined) kept.push(entry);
	}
	run.entries = kept;
}

function scheduleInWindow(
	entry: CampaignEntry,
	window: SendingWindow,
	now: DateTime,
	zone: string,
) {
	const { sendtime } = entry.message;
	const due = sendtime
		? DateTime.fromFormat(String(sendtime), DATE_FORMATS.smsSendtime, { zone })
		: now;
	const opening = nextOpening(window, due);
	if (opening.toMillis() === due.toMillis()) return;
	if (window.outside === 'skip') {
		entry.notSent = 'outsideWindow';
		entry.nextOpening = opening.toISO({ suppressMilliseconds: true }) ?? undefined;
	} else {
		entry.message.sendtime = opening.toFormat(DATE_FORMATS.smsSendtime);
	}
}
