import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

/**
 * Virtual number / call-tracking service. Tested by the nodes' `virtualnumApiTest` (the `test`
 * operation), because each 401 text of the service needs its own advice, which a declarative
 * test cannot give.
 *
 * The service requires the bearer header only "when an API access token is configured for the
 * account": an account that relies on its allowed IP list alone leaves the Access Token empty, and
 * then no Authorization header is sent.
 */
export class VirtualnumApi implements ICredentialType {
	name = 'virtualnumApi';

	displayName = 'Virtual Number API';

	icon = {
		light: 'file:../icons/virtualnum.svg',
		dark: 'file:../icons/virtualnum.dark.svg',
	} as const;

	documentationUrl = 'https://github.com/n8n-nodes-virtualnum/n8n-nodes-virtualnum#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://your-provider-host',
			description:
				'The address of the virtual number service your provider gave you, without ' +
				'/api/ (the nodes add it)',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			description:
				"The account's API access token, sent as Authorization: Bearer. Leave it " +
				'empty when the account has no API access token and relies on its allowed ' +
				"IP list alone. Calls always need the IP of your n8n server in the account's " +
				'allowed IP list.',
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
				'The form the phone numbers of the Virtual Number node are sent in, whatever form ' +
				'they are typed in. Numbers of another country (another code after + or 00) are ' +
				'always sent as typed.',
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
		// Identifier Word: some accounts name numbers with another word than the contract's.
		{
			displayName: 'Identifier Word',
			name: 'identifierWord',
			type: 'string',
			default: 'virtualnum',
			placeholder: 'virtualnum',
			description:
				'Advanced: the word the service names numbers with in its operations and parameters ' +
				'(get_virtualnum, virtualnum=, virtualnum1…). Keep virtualnum unless your provider ' +
				'uses another word (e.g. did): the nodes then use it in every name that holds it.',
		},
	];

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const token = typeof credentials.accessToken === 'string' ? credentials.accessToken.trim() : '';
		if (token === '') return requestOptions;
		return {
			...requestOptions,
			headers: { ...requestOptions.headers, Authorization: `Bearer ${token}` },
		};
	}
}
