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

export function showcaseWorkflow(credentials: { vn: string; sms: string }) {
	const vn = { virtualnumApi: { id: credentials.vn, name: 'Virtual Number sandbox' } };
	const sms = { virtualnumSmsApi: { id: credentials.sms, name: 'SMS sandbox' } };
	const node = (name: string, type: string, typeVersion: number, position: number[]) => ({
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position,
	});
	const smsVersion = current(new BulkSms());
	return {
		name: 'Virtual Number nodes: showcase',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				...node(
					'Virtual Number Trigger',
					'n8n-nodes-virtualnum.virtualNumberTrigger',
					current(new VirtualNumberTrigger()),
					[0, 0],
				),
				webhookId: randomUUID(),
				parameters: { events: ['callEnded'], numbers: 'all' },
				credentials: vn,
			},
			{
				...node(
					'Virtual Number',
					'n8n-nodes-virtualnum.virtualNumber',
					current(new VirtualNumber()),
					[260, 0],
				),
				parameters: {
					resource: 'cdr',
					operation: 'downloadRecording',
					callUuid: '={{ $json.callId }}',
				},
				credentials: vn,
			},
			{
				...node('Bulk SMS', SMS_TYPE, smsVersion, [520, 0]),
				parameters: {
					resource: 'message',
					operation: 'send',
					sender: SENDER,
					to: '={{ $("Virtual Number Trigger").item.json.callerNumber }}',
					message: 'Thanks for calling! Your call was recorded for quality.',
				},
				credentials: sms,
			},
			{
				...node('Start Campaign', 'n8n-nodes-base.manualTrigger', 1, [0, 240]),
				parameters: {},
			},
			{
				...node('Spring Campaign', SMS_TYPE, smsVersion, [260, 240]),
				parameters: {
					resource: 'message',
					operation: 'send',
					sender: SENDER,
					to: '0541110012',
					message: 'Spring sale: 20% off everything until Sunday.',
					options: { sendOncePerNumber: true },
					campaign: CAMPAIGN,
				},
				credentials: sms,
			},
			{
				...node(
					'Call Record Trigger',
					'n8n-nodes-virtualnum.virtualNumberCallRecordTrigger',
					current(new VirtualNumberCallRecordTrigger()),
					[0, 480],
				),
				parameters: {},
				credentials: vn,
			},
			{
				...node('Ask by SMS', SMS_TYPE, smsVersion, [260, 480]),
				webhookId: randomUUID(),
				parameters: {
					resource: 'message',
					operation: 'sendAndWait',
					sender: SENDER,
					to: '={{ $json.callerNumber }}',
					message: 'Thanks for calling. Did we solve your problem?',
				},
				credentials: sms,
			},
		],
		pinData: { 'Virtual Number Trigger': [{ json: CALL_ENDED }] },
		connections: {
			'Virtual Number Trigger': { main: [[{ node: 'Virtual Number', type: 'main', index: 0 }]] },
			'Virtual Number': { main: [[{ node: 'Bulk SMS', type: 'main', index: 0 }]] },
			'Start Campaign': { main: [[{ node: 'Spring Campaign', type: 'main', index: 0 }]] },
			'Call Record Trigger': { main: [[{ node: 'Ask by SMS', type: 'main', index: 0 }]] },
		},
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
