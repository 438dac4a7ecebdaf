/**
 * A workflow with every node of the package at its current version, for the editor screenshots:
 * a call that ended texted a thank-you, a §30A campaign with its Campaign options, and the Call
 * Record Trigger asking a question by SMS. The trigger has pinned data (a call-ended item, in the
 * vocabulary of nodes/shared/callFields.ts) so the expressions after it show a preview.
 */
import { randomUUID } from 'node:crypto';
import { relative } from 'node:path';

import type { N8nServer } from '../../harness/n8n/server.mts';
import { captureEditor } from './browser.mts';

import { BulkSms } from '../../../nodes/BulkSms/BulkSms.node.ts';
import { VirtualNumber } from '../../../nodes/VirtualNumber/VirtualNumber.node.ts';
import { VirtualNumberCallRecordTrigger } from '../../../nodes/VirtualNumberCallRecordTrigger/VirtualNumberCallRecordTrigger.node.ts';
import { VirtualNumberTrigger } from '../../../nodes/VirtualNumberTrigger/VirtualNumberTrigger.node.ts';

const CALL_ENDED = {
	event: 'call.ended',
	callId: '1733053870.11',
	virtualNumber: '0722000100',
	callerNumber: '0501234567',
	destinationPhone: '0550599267',
	numberDescription: 'Billboard Tel Aviv 1',
	callStatus: 'ANSWER',
	startTime: '2024-12-01 11:51:10',
	endTime: '2024-12-01 11:52:45',
	durationSec: 95,
	recordingExists: true,
};

/** What the editor adds a node at: its default version. */
function current(node: { description: { version: number | number[]; defaultVersion?: number } }) {
	const { version, defaultVersion } = node.description;
	return defaultVersion ?? (Array.isArray(version) ? Math.max(...version) : version);
}

const SMS_TYPE = 'n8n-nodes-virtualnum.bulkSms';
const SENDER = { __rl: true, mode: 'id', value: 'Shop24' };

/** Send's Campaign options as a lawful advertisement campaign sets them. */
const CAMPAIGN = {
	advertisement: {
		details: { advertiser: 'Cafe Dizengoff', contact: '03-5551234', keyword: 'הסר' },
	},
	optOuts: { source: { from: 'list', numbers: '0541110010\n972-54-111-0011' } },
	sendingWindow: {
		hours: [
			{ days: ['sun', 'mon', 'tue', 'wed', 'thu'], from: '08:00', until: '21:00' },
			{ days: ['fri'], from: '08:00', until: '14:00' },
		],
	},
	outsideWindow: 'schedule',
	output: 'summary',
};

type Credentials = { vn: string; sms: string };
type Row = [name: string, node: string, position: [number, number], parameters: object];

const VN = 'n8n-nodes-virtualnum.virtualNumber';
const TRIGGER = 'n8n-nodes-virtualnum.virtualNumberTrigger';
const RECORDS = 'n8n-nodes-virtualnum.virtualNumberCallRecordTrigger';
const MANUAL = 'n8n-nodes-base.manualTrigger';

/** The showcase's nodes, each row connected to the one after it on the same line. */
const ROWS: Row[] = [
	['Virtual Number Trigger', TRIGGER, [0, 0], { events: ['callEnded'], numbers: 'all' }],
	[
		'Virtual Number',
		VN,
		[260, 0],
		{ resource: 'cdr', operation: 'downloadRecording', callUuid: '={{ $json.callId }}' },
	],
	[
		'Bulk SMS',
		SMS_TYPE,
		[520, 0],
		{
			resource: 'message',
			operation: 'send',
			sender: SENDER,
			to: '={{ $("Virtual Number Trigger").item.json.callerNumber }}',
			message: 'Thanks for calling! Your call was recorded for quality.',
		},
	],
	['Start Campaign', MANUAL, [0, 240], {}],
	[
		'Spring Campaign',
		SMS_TYPE,
		[260, 240],
		{
			resource: 'message',
			operation: 'send',
			sender: SENDER,
			to: '0541110012',
			message: 'Spring sale: 20% off everything until Sunday.',
			options: { sendOncePerNumber: true },
			campaign: CAMPAIGN,
		},
	],
	['Call Record Trigger', RECORDS, [0, 480], {}],
	[
		'Ask by SMS',
		SMS_TYPE,
		[260, 480],
		{
			resource: 'message',
			operation: 'sendAndWait',
			sender: SENDER,
			to: '={{ $json.callerNumber }}',
			message: 'Thanks for calling. Did we solve your problem?',
		},
	],
];

const VERSIONS: Record<string, number> = {
	[VN]: current(new VirtualNumber()),
	[TRIGGER]: current(new VirtualNumberTrigger()),
	[RECORDS]: current(new VirtualNumberCallRecordTrigger()),
	[SMS_TYPE]: current(new BulkSms()),
	[MANUAL]: 1,
};

function nodeOf([name, type, position, parameters]: Row, credentials: Credentials) {
	const credential =
		type === SMS_TYPE
			? { virtualnumSmsApi: { id: credentials.sms, name: 'SMS sandbox' } }
			: { virtualnumApi: { id: credentials.vn, name: 'Virtual Number sandbox' } };
	const webhook =
		type === TRIGGER || (parameters as { operation?: string }).operation === 'sendAndWait';
	return {
		id: randomUUID(),
		name,
		type,
		typeVersion: VERSIONS[type],
		position,
		parameters,
		...(webhook ? { webhookId: randomUUID() } : {}),
		...(type === MANUAL ? {} : { credentials: credential }),
	};
}

export function showcaseWorkflow(credentials: Credentials) {
	const connections: Record<string, object> = {};
	ROWS.forEach(([name, , [, line]], index) => {
		const next = ROWS[index + 1];
		if (next && next[2][1] === line)
			connections[name] = { main: [[{ node: next[0], type: 'main', index: 0 }]] };
	});
	return {
		name: 'Virtual Number nodes: showcase',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: ROWS.map((row) => nodeOf(row, credentials)),
		pinData: { 'Virtual Number Trigger': [{ json: CALL_ENDED }] },
		connections,
	};
}

/** Opens the showcase in the editor: every node without a parameter issue, its screenshots saved. */
export async function editorRuns(
	server: N8nServer,
	ids: { vn: string; sms: string },
	outDir: string,
	check: (ok: boolean, what: string) => void,
): Promise<void> {
	const showcase = await server.rest<{ id: string }>('POST', '/workflows', showcaseWorkflow(ids));
	const editor = await captureEditor(
		server,
		showcase.id,
		[
			{ name: 'Virtual Number Trigger', shot: 'editor-trigger.png' },
			{ name: 'Virtual Number', shot: 'editor-virtual-number.png', openOperation: true },
			{ name: 'Bulk SMS', shot: 'editor-bulk-sms.png', openOperation: true },
			{ name: 'Spring Campaign', shot: 'editor-bulk-sms-campaign.png', scrollTo: 'Campaign' },
			{ name: 'Call Record Trigger', shot: 'editor-call-record-trigger.png' },
			{ name: 'Ask by SMS', shot: 'editor-send-and-wait.png' },
		],
		outDir,
		[
			{ query: 'Virtual Number', expect: 'Virtual Number', shot: 'node-panel-virtual-number.png' },
			{ query: 'Bulk SMS', expect: 'Bulk SMS', shot: 'node-panel-bulk-sms.png' },
		],
	);
	for (const problem of editor.problems) check(false, `editor: ${problem}`);
	check(
		editor.screenshots.length >= 9,
		`editor screenshots saved: ${editor.screenshots.map((path) => relative(outDir, path)).join(', ')}`,
	);
}
