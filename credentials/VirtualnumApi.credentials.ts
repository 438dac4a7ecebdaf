import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { numberFormFields, serviceTimeZoneField } from './common';

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
		...numberFormFields('the phone numbers of the Virtual Number node'),
		serviceTimeZoneField,
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
