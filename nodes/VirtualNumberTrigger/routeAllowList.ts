/**
 * Which destinations Route Call may answer. A routed call is paid by the account, and the value
 * comes from the workflow (a CRM field, a form, an AI agent): a wrong or planted value must not
 * send the account's calls to a premium-rate or foreign line.
 *
 * Israel's national numbering plan (Ministry of Communications, "תוכנית המספור הלאומית"; published
 * to the ITU under E.164, e.g. ITU Operational Bulletin No. 865, 2006): geographic numbers are
 * 0A + 7 digits (A = 2, 3, 4, 8, 9), mobile numbers 05N + 7 digits, non-geographic (VoIP) numbers
 * 07N + 7 digits. Special services start with 1 instead: 1-800 / 1-80X toll-free, 1-700 and 1-599
 * shared-cost, and premium-rate services. The Ministry's rules for premium services (Appendix N,
 * "Premium Services", added to the operators' general licenses from 24 October 2014; English
 * translation in Partner Communications' SEC filing, exhibit 4a-91, 2015) define a premium
 * "Service Number" as a 10-digit number of the numbering plan made of a designated prefix code and
 * further digits: the 1-900 / 1-9XX ranges, whose exact allocation is kept in the Ministry's
 * administrative provisions, not in the license. The allow-list does not depend on that list: it
 * admits only the three national forms above, so every 10-digit 1-number, premium or not, is
 * refused unless the user allows its prefix.
 */
import { DEFAULT_COUNTRY_CODE, phoneIdentity } from '../shared/phones';

import type { RouteSettings } from './types';

/** Route Call → Allowed Destinations, and the digit prefixes always answered (as written, or in the 972… form). */
type RouteAllowList = RouteSettings['allowList'];
type AllowedDestinations = RouteAllowList['allowed'];

/** Version 1 answered any phone number: its saved workflows keep that unless they choose otherwise. */
export function defaultAllowed(nodeVersion: number): AllowedDestinations {
	return nodeVersion >= 1.1 ? 'israel' : 'any';
}

/** National numbers (after 972) of Israeli landlines (0A), mobiles (05N) and VoIP lines (07N). */
const ISRAELI_LINE = /^(?:[23489]\d{7}|5\d{8}|7[2-9]\d{7})$/;

/** Comma-separated digit prefixes as the user typed them (`+44, 1-800`). */
export function prefixesOf(text: string): string[] {
	return text
		.split(/[,;\n]+/)
		.map((prefix) => prefix.replace(/\D/g, ''))
		.filter(Boolean);
}

/** Israeli special-service numbers as dialled: 1 and 9 digits (1-800-XX-XXXX, 1-900-XX-XXXX). */
const ISRAELI_SPECIAL = /^1\d{9}$/;
/** North American premium-rate area codes (+1 900, +1 976), the ones an "international" list still refuses. */
const NANP_PREMIUM = /^1(?:900|976)\d{7}$/;

/** Why the destination is refused under the allow-list, or undefined when it may be answered. */
export function refusedDestination(digits: string, list: RouteAllowList): string | undefined {
	if (list.allowed === 'any') return undefined;
	const identity = phoneIdentity(digits, DEFAULT_COUNTRY_CODE);
	if (list.prefixes.some((prefix) => digits.startsWith(prefix) || identity.startsWith(prefix)))
		return undefined;
	if (identity.startsWith(DEFAULT_COUNTRY_CODE)) {
		if (ISRAELI_LINE.test(identity.slice(DEFAULT_COUNTRY_CODE.length))) return undefined;
		return 'is not an Israeli mobile or landline number';
	}
	if (ISRAELI_SPECIAL.test(digits))
		return 'is an Israeli special-service number (1-800, 1-700, 1-599, premium-rate 1-900 …)';
	if (list.allowed !== 'international') return 'is an international number';
	if (NANP_PREMIUM.test(digits.replace(/^00/, '')))
		return 'is a premium-rate number (+1 900, +1 976)';
	return undefined;
}
