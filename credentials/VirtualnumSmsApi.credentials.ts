import type { IAuthenticateGeneric, ICredentialType, INodeProperties } from 'n8n-workflow';

/** Bulk SMS service. Tested by the Bulk SMS node's `virtualnumSmsApiTest` (get_sender_list). */
export class VirtualnumSmsApi implements ICredentialType {
	name = 'virtualnumSmsApi';

	displayName = 'Virtual Number SMS API';

	icon = { light: 'file:../icons/sms.svg', dark: 'file:../icons/sms.dark.svg' } as const;

	documentationUrl = 'https://github.com/n8n-nodes-virtualnum/n8n-nodes-virtualnum#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'The SMS service also checks the IP address n8n calls from: add the public ' +
				"IP of your n8n server to the account's allowed IP list, or every request " +
				'is refused.',
			name: 'ipNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://your-sms-provider-host',
			description:
				'The address of the SMS service your provider gave you (its own address, not ' +
				'the virtual number one), without /api/',
			hint: "Requests come from your n8n server's public IP, which must be on the account's allowed IP list",
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The SMS access token, sent as Authorization: Bearer',
		},
		{
			displayName: 'Account Token',
			name: 'accountToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				'Optional account identification token: sent as the "token" parameter of ' +
				'the sender operations, and as the "token" field of every message sent, ' +
				'when set',
		},
		// ---- Send Numbers As: the form phone numbers are sent in (nodes/shared/phones.ts) ----
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
				'The form the recipients of Bulk SMS → Send are sent in, whatever form they are ' +
				'typed in. Numbers of another country (another code after + or 00) are always ' +
				'sent as typed.',
		},
		{
			displayName: 'Country Code',
			name: 'countryCode',
			type: 'string',
			default: '972',
			placeholder: 'e.g. 972',
			description: 'The country code local numbers (0…) belong to, digits only',
			displayOptions: { show: { sendNumbersAs: ['international'] } },
		},
		// Service Time Zone: the clock of the service's dates, read by nodes/shared/dates.ts.
		{
			displayName: 'Service Time Zone',
			name: 'serviceTimeZone',
			type: 'string',
			default: 'Asia/Jerusalem',
			placeholder: 'Asia/Jerusalem',
			description:
				"The IANA time zone the service's clock runs in (the provider's is Israel time, " +
				'Asia/Jerusalem). Every date the nodes send or read is written in it, whatever ' +
				'the zone of the workflow or of the n8n server; a date with an offset is converted.',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.accessToken}}',
			},
		},
	};
}
