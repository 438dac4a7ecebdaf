/**
 * The workflows of the recordings bench (pollRecordings.mts), one per side, each polling one number:
 *
 * - include: the Call Record Trigger with Include → Recording (the node's side);
 * - noInclude: the same trigger without Include, nothing downloaded: what n8n itself spends on a
 *   poll execution of 100 items;
 * - httpRequest: the trigger without Include → n8n's HTTP Request node downloading each record's
 *   recording as a file (Response Format: File), what a user builds with n8n's own nodes: n8n's
 *   floor for 100 downloaded files.
 */
import { SANDBOX_ZONE } from '../e2e/lib/pollTrigger.mts';
import { chain, node, type NodeJson } from '../harness/n8n/workflows.mts';

export type PollSideKey = 'include' | 'noInclude' | 'httpRequest';

export interface PollSide {
	key: PollSideKey;
	name: string;
	/** The node whose output items are counted, and whether each must carry binary `data`. */
	counted: string;
	binary: boolean;
	/** Whether the side downloads the recordings (one get_record_by_call_uuid per record). */
	downloads: boolean;
}

export const POLL_SIDES: PollSide[] = [
	{
		key: 'include',
		name: 'Call Record Trigger, Include → Recording',
		counted: 'Call Records',
		binary: true,
		downloads: true,
	},
	{
		key: 'noInclude',
		name: 'Call Record Trigger without Include (nothing downloaded)',
		counted: 'Call Records',
		binary: false,
		downloads: false,
	},
	{
		key: 'httpRequest',
		name: 'Call Record Trigger → HTTP Request (Response Format: File)',
		counted: 'HTTP Request',
		binary: true,
		downloads: true,
	},
];

/**
 * Every 5 s: n8n 2.40 refuses a Poll Time under a minute but checks each Poll Time on its own, so
 * twelve custom times (one per 5 s) keep the bench's waits for the next poll short.
 */
const EVERY_5_S = {
	item: Array.from({ length: 12 }, (_, i) => ({
		mode: 'custom',
		cronExpression: `${i * 5} * * * * *`,
	})),
};

export interface SideCredentials {
	/** The Virtual Number credential (the trigger's) and the Header Auth one (HTTP Request's). */
	virtualnum: string;
	header: string;
}

function trigger(number: string, records: number, include: string[], id: string): NodeJson {
	return node(
		'Call Records',
		'n8n-nodes-virtualnum.virtualNumberCallRecordTrigger',
		1,
		{
			pollTimes: EVERY_5_S,
			virtualNumbers: number,
			include,
			options: { maxRecords: records, serviceTimeZone: SANDBOX_ZONE },
		},
		{ credentials: { virtualnumApi: { id, name: 'Virtual Number sandbox' } } },
	);
}

/** n8n's HTTP Request as a user sets it up for the service's download (contract: docs/api). */
function httpDownload(vnUrl: string, headerCredential: string): NodeJson {
	const query = {
		service: 'get_record_by_call_uuid',
		call_uuid: '={{ $json.callId }}',
		type: 'wav',
	};
	return node(
		'HTTP Request',
		'n8n-nodes-base.httpRequest',
		4.2,
		{
			method: 'GET',
			url: `${vnUrl}/api/`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpHeaderAuth',
			sendQuery: true,
			queryParameters: {
				parameters: Object.entries(query).map(([name, value]) => ({ name, value })),
			},
			options: { response: { response: { responseFormat: 'file' } } },
		},
		{ credentials: { httpHeaderAuth: { id: headerCredential, name: 'Virtual Number token' } } },
	);
}

/** The side's workflow on `number`, up to `records` records per poll. */
export function sideWorkflow(
	side: PollSide,
	number: string,
	records: number,
	vnUrl: string,
	credentials: SideCredentials,
): Record<string, unknown> {
	const include = side.key === 'include' ? ['recording'] : [];
	const nodes = [trigger(number, records, include, credentials.virtualnum)];
	nodes.push(
		side.key === 'httpRequest'
			? httpDownload(vnUrl, credentials.header)
			: node('Received', 'n8n-nodes-base.noOp', 1, {}),
	);
	return chain(`Bench: ${side.name} (${number})`, nodes);
}
