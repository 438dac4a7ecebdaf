import type { IAuthenticateGeneric, ICredentialType, INodeProperties } from 'n8n-workflow';

import { numberFormFields, serviceTimeZoneField } from './common';

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
		...numberFormFields('the recipients of Bulk SMS → Send'),
		serviceTimeZoneField,
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
