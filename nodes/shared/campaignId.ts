/**
 * A campaign's ID on the way from Bulk SMS Send to the Virtual Number Trigger: Send adds it to
 * the Delivery Report URL of every message, the SMS service calls that URL with each delivery
 * report, and the trigger's SMS Delivery Status reads it back from the query.
 */

/** The query parameter of the Delivery Report URL that carries the campaign's ID. */
export const CAMPAIGN_ID_PARAMETER = 'campaignId';

/** The Delivery Report URL with the campaign's ID as a query parameter (any it had replaced). */
export function withCampaignId(url: string, campaignId: string): string {
	if (!campaignId) return url;
	const hash = url.indexOf('#');
	const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
	const [path, query = ''] = base.split(/\?(.*)/s);
	const kept = query
		.split('&')
		.filter((pair) => pair !== '' && pair.split('=')[0] !== CAMPAIGN_ID_PARAMETER);
	kept.push(`${CAMPAIGN_ID_PARAMETER}=${encodeURIComponent(campaignId)}`);
	return `${path}?${kept.join('&')}${fragment}`;
}
