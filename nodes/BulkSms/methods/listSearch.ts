import type { ILoadOptionsFunctions, INodeListSearchResult } from 'n8n-workflow';

import { smsSenderRequest } from '../../shared/transport/smsApi';
import { senderList } from '../helpers/utils';

/** `verified` is a boolean in the spec; tolerate the usual encodings of true. */
function isVerified(value: unknown): boolean {
	return value === true || value === 1 || value === '1' || String(value).toLowerCase() === 'true';
}

/**
 * Sender picker of Message → Send: the account's senders from get_sender_list, verified only
 * (a message sent with any other sender fails), each shown with its type.
 */
export async function searchSenders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	// The service's search accepts digits and Latin letters only: drop anything else (+, -, spaces).
	const search = (filter ?? '').replace(/[^A-Za-z0-9]/g, '');
	const answer = await smsSenderRequest.call(this, 'get_sender_list', search ? { search } : {});
	const results = senderList(answer)
		.filter((sender) => isVerified(sender.verified) && String(sender.sender ?? '').trim() !== '')
		.map((sender) => {
			const value = String(sender.sender).trim();
			const type =
				sender.type === 'phone'
					? 'phone'
					: sender.type === 'text'
						? 'text'
						: String(sender.type ?? 'sender');
			const note =
				typeof sender.description === 'string' && sender.description.trim()
					? ` — ${sender.description.trim()}`
					: '';
			return { name: `${value} (${type})${note}`, value };
		})
		.sort((a, b) => a.name.localeCompare(b.name));
	return { results };
}
