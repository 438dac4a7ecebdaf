/**
 * A workflow with every node of the package, for the editor screenshots. The trigger has pinned
 * data (a call-ended item, in the vocabulary of nodes/shared/callFields.ts) so the expressions
 * after it show a preview instead of nothing.
 */
import { randomUUID } from 'node:crypto';

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

export function showcaseWorkflow(credentials: { vn: string; sms: string }) {
	const vn = { virtualnumApi: { id: credentials.vn, name: 'Virtual Number sandbox' } };
	return {
		name: 'Virtual Number nodes: showcase',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: randomUUID(),
				name: 'Virtual Number Trigger',
				type: 'n8n-nodes-virtualnum.virtualNumberTrigger',
				typeVersion: 1,
				position: [0, 0],
				webhookId: randomUUID(),
				parameters: { events: ['callEnded'], numbers: 'all' },
				credentials: vn,
			},
			{
				id: randomUUID(),
				name: 'Virtual Number',
				type: 'n8n-nodes-virtualnum.virtualNumber',
				typeVersion: 1,
				position: [260, 0],
				parameters: {
					resource: 'cdr',
					operation: 'downloadRecording',
					callUuid: '={{ $json.callId }}',
				},
				credentials: vn,
			},
			{
				id: randomUUID(),
				name: 'Bulk SMS',
				type: 'n8n-nodes-virtualnum.bulkSms',
				typeVersion: 1,
				position: [520, 0],
				parameters: {
					resource: 'message',
					operation: 'send',
					sender: { __rl: true, mode: 'id', value: 'Shop24' },
					to: '={{ $("Virtual Number Trigger").item.json.callerNumber }}',
					message: 'Thanks for calling! Your call was recorded for quality.',
				},
				credentials: { virtualnumSmsApi: { id: credentials.sms, name: 'SMS sandbox' } },
			},
		],
		pinData: { 'Virtual Number Trigger': [{ json: CALL_ENDED }] },
		connections: {
			'Virtual Number Trigger': { main: [[{ node: 'Virtual Number', type: 'main', index: 0 }]] },
			'Virtual Number': { main: [[{ node: 'Bulk SMS', type: 'main', index: 0 }]] },
		},
	};
}
