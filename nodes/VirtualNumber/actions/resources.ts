/** The node's resources, in the order of the Resource dropdown. */
import type { INodePropertyOptions } from 'n8n-workflow';

import * as account from './account';
import * as blacklist from './blacklist';
import * as prompt from './prompt';
import * as tag from './tag';
import * as user from './user';

export const resources = { account, blacklist, tag, user, prompt };

export const resourceOptions: INodePropertyOptions[] = [
	{ name: 'Account', value: 'account', description: 'Check the connection to the service' },
	{ name: 'Blacklist', value: 'blacklist', description: 'Block and unblock callers, globally or per virtual number' },
	{ name: 'Tag', value: 'tag', description: 'Group virtual numbers with tags' },
	{ name: 'User', value: 'user', description: 'Manage users, their virtual numbers and their access log' },
	{ name: 'Voice Prompt', value: 'prompt', description: 'List, download, upload, delete and record voice prompts' },
];
