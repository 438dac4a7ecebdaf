import type { IAuthenticateGeneric, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * n8n's own public REST API, for answers by SMS reply: Send and Wait for Response keeps a row per
 * waiting run in an n8n Data Table, and the trigger's SMS Received finds the run a reply answers.
 * n8n serves Data Tables to community nodes only through its public API (its in-process helper
 * is reserved to n8n's own Data table nodes), so the nodes call it with an API key like any client.
 * The package's own credential, not n8n's `n8nApi`: n8n's lint forbids reusing another package's.
 *
 * Tested by the nodes' `virtualnumN8nApiTest`, which names each refusal's fix (the public API
 * turned off, a key without the Data Table scopes) where a declarative test could not.
 */
export class VirtualnumN8nApi implements ICredentialType {
	name = 'virtualnumN8nApi';

	// What it gives the nodes, in title case (n8n's community scanner ignores eslint-disable, and
	// title case would spell n8n "N8n"): the key itself comes from n8n's Settings → n8n API.
	displayName = 'Virtual Number: Data Tables API';

	icon = { light: 'file:../icons/sms.svg', dark: 'file:../icons/sms.dark.svg' } as const;

	documentationUrl =
		'https://github.com/n8n-nodes-virtualnum/n8n-nodes-virtualnum/blob/main/docs/bulk-sms-node.md#answer-by-sms-reply';

	properties: INodeProperties[] = [
		{
			displayName:
				"Needs n8n's public API (on unless N8N_PUBLIC_API_DISABLED is set) and an API key " +
				'(Settings → n8n API) with the Data Table scopes: dataTable:list, dataTable:create, ' +
				'dataTable:read, dataTableRow:create, dataTableRow:read and dataTableRow:delete.',
			name: 'scopesNotice',
			type: 'notice',
			default: '',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'e.g. http://localhost:5678',
			description:
				'The address of this n8n as its own server reaches it (in queue mode: the main ' +
				'process, which alone serves the public API), without /api/v1',
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'An n8n API key, sent as the X-N8N-API-KEY header to the Base URL only',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { 'X-N8N-API-KEY': '={{$credentials.apiKey}}' } },
	};
}
