import type { IAuthenticateGeneric, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * Virtual number / call-tracking service. Tested by the nodes' `virtualnumApiTest` (the `test`
 * operation), because each 401 text of the service needs its own advice, which a declarative
 * test cannot give.
 */
export class VirtualnumApi implements ICredentialType {
	name = 'virtualnumApi';

	displayName = 'Virtual Number API';

	icon = { light: 'file:../icons/virtualnum.svg', dark: 'file:../icons/virtualnum.dark.svg' } as const;

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
				'The address of the virtual number service your provider gave you, without /api/ (the nodes add it). For the local sandbox: http://127.0.0.1:5701.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				"The account's API access token, sent as Authorization: Bearer. Calls also need the IP of your n8n server in the account's allowed IP list.",
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
