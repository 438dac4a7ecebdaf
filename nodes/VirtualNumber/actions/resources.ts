/** The node's resources, in the order of the Resource dropdown. */
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { resourceField } from '../../shared/router';
import * as account from './account';
import * as blacklist from './blacklist';
import * as call from './call';
import * as cdr from './cdr';
import * as offlineConversion from './offlineConversion';
import * as prompt from './prompt';
import * as tag from './tag';
import * as user from './user';
import * as virtualnum from './virtualnum';

export const resources = {
	account,
	virtualnum,
	call,
	cdr,
	offlineConversion,
	user,
	tag,
	blacklist,
	prompt,
};

const resourceOptions: INodePropertyOptions[] = [
	{ name: 'Account', value: 'account', description: 'Check the connection to the service' },
	{
		name: 'Blacklist',
		value: 'blacklist',
		description: 'Block and unblock callers, globally or per virtual number',
	},
	{
		name: 'Call',
		value: 'call',
		description: 'Place click-to-call and two-leg calls, route incoming calls',
	},
	{
		name: 'Call Record',
		value: 'cdr',
		description: 'Query call records, download recordings, add records',
	},
	{
		name: 'Offline Conversion',
		value: 'offlineConversion',
		description: 'Read and set the advertising conversion value of a call',
	},
	{ name: 'Tag', value: 'tag', description: 'Group virtual numbers with tags' },
	{
		name: 'User',
		value: 'user',
		description: 'Manage users, their virtual numbers and their access log',
	},
	{
		name: 'Virtual Number',
		value: 'virtualnum',
		description: 'List, allocate, change, release and restore numbers',
	},
	{
		name: 'Voice Prompt',
		value: 'prompt',
		description: 'List, download, upload, delete and record voice prompts',
	},
];

const resourceDropdown = resourceField(resourceOptions, 'cdr');

/**
 * The Resource dropdown. n8n saves only the parameters that differ from their default, so a
 * version-1 workflow on Account → Test Connection has no `resource` at all: version 1 keeps the
 * default `account` for them. From version 1.1 a new node opens on Call Record → Query, what the
 * node is used for most (Test Connection repeats the credential's own test).
 */
export const resourceFields: INodeProperties[] = [
	{ ...resourceDropdown, default: 'account', displayOptions: { show: { '@version': [1] } } },
	{ ...resourceDropdown, displayOptions: { hide: { '@version': [1] } } },
];
