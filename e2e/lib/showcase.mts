/** A workflow with every node of the package, for the editor screenshots. */
import { randomUUID } from 'node:crypto';

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
				parameters: { resource: 'cdr', operation: 'downloadRecording', callUuid: '={{ $json.callId }}' },
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
					to: '={{ $("Virtual Number Trigger").item.json.caller }}',
					message: 'Thanks for calling! Your call was recorded for quality.',
				},
				credentials: { virtualnumSmsApi: { id: credentials.sms, name: 'SMS sandbox' } },
			},
		],
		connections: {
			'Virtual Number Trigger': { main: [[{ node: 'Virtual Number', type: 'main', index: 0 }]] },
			'Virtual Number': { main: [[{ node: 'Bulk SMS', type: 'main', index: 0 }]] },
		},
	};
}
