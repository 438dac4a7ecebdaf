/** The tests of Send and Wait for Response's webhook: a Bulk SMS node whose webhook n8n calls on its resume URL. */
import type { ICredentialDataDecryptedObject, IDataObject } from 'n8n-workflow';

import { PACKAGE } from '../../../../../dev/harness/engine.mts';
import type { TriggerHost, TriggerInstance } from '../../../../../dev/harness/trigger.mts';

/** A waiting Bulk SMS node named Ask, with the node type's own webhooks, on the host. */
export function waitingNode(
	host: TriggerHost,
	parameters: IDataObject,
	credentials: Record<string, ICredentialDataDecryptedObject> = {},
): TriggerInstance {
	const description = (
		host as unknown as {
			nodeTypes: {
				getByNameAndVersion(type: string, version: number): { description: IDataObject };
			};
		}
	).nodeTypes.getByNameAndVersion(`${PACKAGE}.bulkSms`, 1).description;
	return host.add({
		name: 'Ask',
		parameters,
		credentials,
		node: { type: `${PACKAGE}.bulkSms`, typeVersion: 1, webhooks: description.webhooks as never },
	});
}
