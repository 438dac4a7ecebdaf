/**
 * Send's Advertisement mode: the user writes only the message; what goes out starts with the word
 * "פרסומת", names the advertiser with contact details, and says how to refuse (a reply keyword,
 * a link, or both), as Israel's Communications Law section 30A (Amendment 40) requires of an
 * advertisement sent by SMS (docs/bulk-sms-node.md, Campaigns, cites the sources). Whether the
 * recipient consented is for the user to know; nothing here can decide it.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';

/** The word the law requires at the start of an advertisement. */
const ADVERTISEMENT_WORD = 'פרסומת';

/** The reply keyword people in Israel use to refuse ("remove"), the default of the option. */
const DEFAULT_OPT_OUT_KEYWORD = 'הסר';

export interface Advertisement {
	advertiser: string;
	contact: string;
	keyword: string;
	link: string;
}

export const advertisementOption: INodeProperties = {
	displayName: 'Advertisement',
	name: 'advertisement',
	type: 'fixedCollection',
	default: {},
	placeholder: 'Add Advertiser Details',
	description:
		'Send the message as an advertisement: it goes out starting with "פרסומת", with the advertiser\'s ' +
		'name and contact details and how to refuse, as Israeli law requires. Write only the message.',
	hint: "The recipients' prior consent is yours to have: the node cannot check it",
	options: [
		{
			displayName: 'Advertiser',
			name: 'details',
			values: [
				{
					displayName: 'Advertiser Name',
					name: 'advertiser',
					type: 'string',
					default: '',
					required: true,
					placeholder: 'e.g. Cafe Dizengoff',
					description: 'The name the recipient knows the advertiser by',
				},
				{
					displayName: 'Contact Details',
					name: 'contact',
					type: 'string',
					default: '',
					required: true,
					placeholder: 'e.g. 03-5551234',
					description: 'How the recipient can reach the advertiser: a phone number, an address',
				},
				{
					displayName: 'Opt-Out Reply Keyword',
					name: 'keyword',
					type: 'string',
					default: DEFAULT_OPT_OUT_KEYWORD,
					description:
						'The word the recipient replies with to refuse further messages. Empty: only the link is given.',
				},
				{
					displayName: 'Opt-Out Link',
					name: 'link',
					type: 'string',
					default: '',
					placeholder: 'e.g. https://example.com/remove',
					description: 'A page where the recipient can refuse further messages (optional)',
				},
			],
		},
	],
};

/** The Advertisement option as set, checked; undefined when it is not set. */
export function readAdvertisement(check: InputChecks, raw: unknown): Advertisement | undefined {
	const details = (raw as IDataObject | undefined)?.details as IDataObject | undefined;
	if (!details) return undefined;
	const text = (value: unknown) =>
		value === undefined || value === null ? '' : String(value).trim();
	const advertiser = text(details.advertiser);
	const contact = text(details.contact);
	const keyword = details.keyword === undefined ? DEFAULT_OPT_OUT_KEYWORD : text(details.keyword);
	const link = text(details.link);
	if (!advertiser)
		check.fail(
			'Advertiser Name',
			'is required in an advertisement: the law requires the advertiser to be named',
		);
	if (!contact)
		check.fail(
			'Contact Details',
			"are required in an advertisement: the law requires the advertiser's contact details",
		);
	if (!keyword && !link)
		check.fail(
			'Opt-Out Reply Keyword',
			'is empty, and so is Opt-Out Link: an advertisement must say how to refuse further ' +
				'messages (a reply keyword, a link, or both)',
		);
	return { advertiser, contact, keyword, link };
}

/** How to refuse, in Hebrew: "to be removed, reply הסר", "or at <link>". */
function optOutLine(ad: Advertisement): string {
	if (ad.keyword && ad.link) return `להסרה השיבו ${ad.keyword} או ${ad.link}`;
	if (ad.keyword) return `להסרה השיבו ${ad.keyword}`;
	return `להסרה: ${ad.link}`;
}

/**
 * The text that goes out: "פרסומת: " and the message (a message already starting with the word
 * keeps it once), then the advertiser and contact, then how to refuse, each on its own line.
 */
export function advertisementText(message: string, ad: Advertisement): string {
	const body = message.trimStart().startsWith(ADVERTISEMENT_WORD)
		? message
		: `${ADVERTISEMENT_WORD}: ${message}`;
	return `${body}\n${ad.advertiser}, ${ad.contact}\n${optOutLine(ad)}`;
}
