import type { INodeProperties } from 'n8n-workflow';

import { SERVICE_TIME_ZONE, SERVICE_TIME_ZONE_FIELD } from '../nodes/shared/dates';
import { DEFAULT_COUNTRY_CODE } from '../nodes/shared/phones';

/**
 * The fields both credentials share, defined once. Their names and defaults are what saved
 * credentials hold: never change them. The defaults are the ones the nodes fall back to.
 */

/** Send Numbers As and Country Code: the form phone numbers are sent in (nodes/shared/phones.ts). */
export function numberFormFields(whichNumbers: string): INodeProperties[] {
	return [
		{
			displayName: 'Send Numbers As',
			name: 'sendNumbersAs',
			type: 'options',
			default: 'asTyped',
			options: [
				{
					name: 'As Typed',
					value: 'asTyped',
					description:
						'The digits as written: +972-50-123-4567 → 972501234567, 050-123-4567 → 0501234567',
				},
				{
					name: 'Local',
					value: 'local',
					description: 'With the leading 0: +972-50-123-4567 → 0501234567',
				},
				{
					name: 'International',
					value: 'international',
					description: 'With the country code: 050-123-4567 → 972501234567',
				},
			],
			description:
				`The form ${whichNumbers} are sent in, whatever form they are typed in. Numbers of ` +
				'another country (another code after + or 00) are always sent as typed.',
		},
		{
			displayName: 'Country Code',
			name: 'countryCode',
			type: 'string',
			default: DEFAULT_COUNTRY_CODE,
			placeholder: `e.g. ${DEFAULT_COUNTRY_CODE}`,
			description: 'The country code local numbers (0…) belong to, digits only',
			displayOptions: { show: { sendNumbersAs: ['international'] } },
		},
	];
}

/** Service Time Zone: the clock of the service's dates, read by nodes/shared/dates.ts. */
export const serviceTimeZoneField: INodeProperties = {
	displayName: SERVICE_TIME_ZONE_FIELD,
	name: 'serviceTimeZone',
	type: 'string',
	default: SERVICE_TIME_ZONE,
	placeholder: SERVICE_TIME_ZONE,
	description:
		"The IANA time zone the service's clock runs in (the provider's is Israel time, " +
		`${SERVICE_TIME_ZONE}). Every date the nodes send or read is written in it, whatever ` +
		'the zone of the workflow or of the n8n server; a date with an offset is converted.',
};
