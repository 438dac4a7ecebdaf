import type { IBuilderHint, IParameterBuilderHint, IRelatedNode } from 'n8n-workflow';

/**
 * What n8n's AI workflow builder reads about the nodes (n8n 2.x): `searchHint` is printed under the node
 * in its node search, `relatedNodes` next to it, and a parameter's `propertyHint` in the type definition
 * it writes the node's parameters from. n8n 1.x ignores these keys. Type-only import: no n8n-workflow
 * export is needed at run time.
 */

const PACKAGE = 'n8n-nodes-virtualnum';

const related = {
	bulkSms: {
		nodeType: `${PACKAGE}.bulkSms`,
		relationHint:
			'Sends SMS (Message → Send) or one SMS with an approval link (Send and Wait for Response) to the caller',
	},
	virtualNumber: {
		nodeType: `${PACKAGE}.virtualNumber`,
		relationHint:
			'Reads the full call record (Call Record → Query), downloads its recording, places click-to-call calls',
	},
	webhookTrigger: {
		nodeType: `${PACKAGE}.virtualNumberTrigger`,
		relationHint:
			'Starts the workflow when a call starts or ends on a virtual number, or an SMS delivery status arrives',
	},
	callRecordTrigger: {
		nodeType: `${PACKAGE}.virtualNumberCallRecordTrigger`,
		relationHint:
			'Starts the workflow for each new call record by polling: no public n8n URL or number callback needed',
	},
	dataTable: {
		nodeType: 'n8n-nodes-base.dataTable',
		relationHint:
			'Keeps opt-outs, contact lists or one row per call inside n8n, without a database',
	},
	agent: {
		nodeType: '@n8n/n8n-nodes-langchain.agent',
		relationHint:
			'Both action nodes are usable as AI Agent tools, e.g. to look up a call or send an SMS from a chat',
	},
} satisfies Record<string, IRelatedNode>;

export const builderHints = {
	bulkSms: {
		searchHint:
			'SMS through the bulk SMS service: send one text to many phone numbers in batches (Message → Send), ' +
			'one per input item or a list in one field; schedule with Send At; ask a person to approve by SMS ' +
			'(Send and Wait for Response); sender names and credit. Not for phone calls or call records.',
		relatedNodes: [
			related.webhookTrigger,
			related.virtualNumber,
			related.callRecordTrigger,
			related.dataTable,
			related.agent,
		],
	},
	virtualNumber: {
		searchHint:
			'Virtual numbers / call tracking: query call records (who called which number, when, how long, ' +
			'answered or not), download call recordings and transcripts, click-to-call, and manage the ' +
			'numbers, users, tags, blacklist and voice prompts of the account. Not for sending SMS.',
		relatedNodes: [
			related.webhookTrigger,
			related.callRecordTrigger,
			related.bulkSms,
			related.dataTable,
			related.agent,
		],
	},
	webhookTrigger: {
		searchHint:
			'Trigger on phone calls to the virtual numbers (Call Started, Call Ended), SMS delivery status ' +
			'and SMS received: activating the workflow points the numbers at n8n, which needs a public n8n URL. ' +
			'Follow with Virtual Number → Call Record to read the full call, or Bulk SMS to text the caller. ' +
			'Items carry conversationKey (the phone identity of the sender or caller): key n8n chat memory or ' +
			'Remove Duplicates by it; Call Ended can start only for unanswered calls (missed-call text-back).',
		relatedNodes: [
			related.virtualNumber,
			related.bulkSms,
			related.callRecordTrigger,
			related.dataTable,
			related.agent,
		],
	},
	callRecordTrigger: {
		searchHint:
			'Trigger on new call records (finished calls) by polling the call-tracking service, each record ' +
			'once and in order: for syncing calls into a CRM, sheet or Data Table. Use the Virtual Number ' +
			'Trigger instead when the workflow must run while the call is still ringing.',
		relatedNodes: [
			related.virtualNumber,
			related.bulkSms,
			related.webhookTrigger,
			related.dataTable,
			related.agent,
		],
	},
} satisfies Record<string, IBuilderHint>;

/** Hints on the fields the builder most often has to fill from earlier nodes. */
export const parameterHints = {
	smsTo: {
		propertyHint:
			"An expression for the recipient's phone number from the input item, e.g. " +
			'`={{ $json.phone }}`; several numbers separated by commas also work. For a list of thousands ' +
			"set Recipients From to 'inputFields' and name the field in Phone Number Field instead.",
	},
	smsMessage: {
		propertyHint:
			'The SMS text; expressions insert item fields, e.g. `=Hi {{ $json.firstName }}`. Keep it short: ' +
			'over 160 Latin characters (70 in Hebrew or with emoji) it goes out as several parts.',
	},
	approverPhone: {
		propertyHint:
			'One phone number: the person who must approve or answer, e.g. `={{ $json.managerPhone }}`. The ' +
			'workflow waits at this node until that person answers (through the link, or by SMS reply).',
	},
	approvalQuestion: {
		propertyHint:
			'The question for the person, with the item fields it is about, e.g. ' +
			'`=Approve refund of {{ $json.amount }} for {{ $json.customer }}?`; the answer link is added after ' +
			"it. With answerBy 'smsReply' say how to answer, e.g. `=… Reply 1 to confirm, 2 to cancel`.",
	},
	answerBy: {
		propertyHint:
			"'smsReply' when people answer by texting back (appointment reminders: 1 to confirm, 2 to cancel): " +
			'the Sender must be a virtual number that receives SMS, and a Virtual Number Trigger on SMS Received ' +
			"with dataTables ['waitingRuns'] (same n8n API credential) must be active. The run resumes with " +
			'`data.outcome` (answered, unclear, optedOut, superseded) and `data.approved`. ' +
			"'link' (default) sends a link to an answer page instead.",
	},
	triggerEvents: {
		propertyHint:
			"Pick only the events the workflow handles: 'callEnded' for after-call work (CRM, follow-up SMS), " +
			"'callStarted' to act while the phone rings, 'smsDelivery' for delivery reports of sent SMS, " +
			"'smsReceived' for replies to the account's numbers.",
	},
	sendFrom: {
		propertyHint:
			"'numberTexted' when the SMS answers someone who texted a virtual number (a Virtual Number Trigger " +
			'on SMS Received earlier in the workflow, also with an AI Agent in between): the reply goes out ' +
			"from the number they texted, so their next reply comes back to it. 'sender' (default) otherwise.",
	},
	triggerDataTables: {
		propertyHint:
			"With 'smsReceived': 'waitingRuns' when Bulk SMS Send and Wait nodes ask by SMS reply (their replies " +
			"then resume those runs instead of starting this workflow); 'optedOut' to get `optedOut` for senders in " +
			'the opt-outs table, e.g. so an SMS assistant never answers them. Either needs the n8n API credential.',
	},
	callRecordNumbers: {
		propertyHint:
			'Leave empty for every number of the account; otherwise only the virtual numbers the user names, ' +
			'comma-separated.',
	},
} satisfies Record<string, IParameterBuilderHint>;
