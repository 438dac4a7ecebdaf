// The demo's campaign: examples/sms-campaign-skip-opted-out.json run as it is in the file — a §30A
// advertisement (Campaign → Advertisement) to the rows of a recipients table, skipping the numbers
// of an opt-out table written as people keep them (the field-data corpus's spellings), Send Once per
// Number, the error output recording the rows that cannot be sent, one Summary for the run. n8n's
// Data table nodes need an n8n server: here their rows are pinned on stand-ins of the same names,
// as n8n's editor pins data, and the recorder shows the rows it would write.
import { readFileSync } from 'node:fs';

import type { ICredentialDataDecryptedObject, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runWorkflow, START_TYPE, type RunResult } from '../harness/engine.mts';
import { check, outputOf, table, text } from './checks.mts';
import type { DemoRun } from './steps.mts';
import {
	byOperation,
	findNode,
	loadExample,
	pinnedItems,
	triggerOf,
	type ExampleNode,
	type ExampleWorkflow,
} from './workflows.mts';

export const CAMPAIGN_EXAMPLE = 'sms-campaign-skip-opted-out.json';

/** The example's nodes by their part: the two tables read, Send, and the recorder of failed rows. */
interface CampaignNodes {
	trigger: ExampleNode;
	optOuts: ExampleNode;
	recipients: ExampleNode;
	send: ExampleNode;
	recorder: ExampleNode;
}

/** The node an output of `from` leads to; the example's shape is checked, not assumed. */
function next(workflow: ExampleWorkflow, from: ExampleNode, output = 0): ExampleNode {
	const target = workflow.connections[from.name]?.main?.[output]?.[0]?.node;
	const node = workflow.nodes.find((candidate) => candidate.name === target);
	if (!node) throw new Error(`"${workflow.name}": ${from.name} has no node on output ${output}`);
	return node;
}

export function campaignNodes(workflow: ExampleWorkflow): CampaignNodes {
	const trigger = triggerOf(workflow);
	const optOuts = next(workflow, trigger);
	const recipients = next(workflow, optOuts);
	const send = findNode(workflow, byOperation('message', 'send'), 'Bulk SMS → Send');
	if (next(workflow, recipients) !== send)
		throw new Error(`"${workflow.name}": ${recipients.name} does not lead to ${send.name}`);
	const recorder = next(workflow, send, 1);
	for (const [node, operation] of [
		[optOuts, 'get'],
		[recipients, 'get'],
		[recorder, 'insert'],
	] as const)
		if (node.type !== 'n8n-nodes-base.dataTable' || node.parameters.operation !== operation)
			throw new Error(`"${workflow.name}": ${node.name} is not a Data table ${operation}`);
	return { trigger, optOuts, recipients, send, recorder };
}

export interface CampaignRun {
	run: RunResult;
	nodes: CampaignNodes;
	/** Send's success output (the Summary) and its error output (what the recorder writes). */
	summary: IDataObject;
	failedRows: INodeExecutionData[];
}

/** Runs the example with `optOutRows` and `recipients` as the rows its two Data tables return. */
export async function runCampaignExample(options: {
	credentials: Record<string, ICredentialDataDecryptedObject>;
	optOutRows: IDataObject[];
	recipients: IDataObject[];
	timezone?: string;
}): Promise<CampaignRun> {
	const workflow = loadExample(CAMPAIGN_EXAMPLE);
	const nodes = campaignNodes(workflow);
	const { trigger, optOuts, recipients, send, recorder } = nodes;
	const standIn = (node: ExampleNode) => ({ name: node.name, type: START_TYPE });
	const run = await runWorkflow({
		nodes: [
			standIn(optOuts),
			standIn(recipients),
			{
				name: send.name,
				type: send.type,
				typeVersion: send.typeVersion,
				parameters: send.parameters,
				credentials: send.credentials,
				onError: send.onError,
			},
			standIn(recorder),
		],
		connections: [
			[optOuts.name, recipients.name],
			[recipients.name, send.name],
			[send.name, recorder.name, 1],
		],
		input: pinnedItems(workflow, trigger.name),
		pinData: {
			// Always Output Data: an empty table gives one empty item.
			[optOuts.name]: (options.optOutRows.length > 0 ? options.optOutRows : [{}]).map((json) => ({
				json,
			})),
			[recipients.name]: options.recipients.map((json) => ({ json })),
		},
		credentials: options.credentials,
		timezone: workflow.settings?.timezone ?? options.timezone,
		startName: trigger.name,
	});
	const [summary] = outputOf(run, send.name);
	const failedRows = run.outputs(send.name)[1] ?? [];
	return { run, nodes, summary: summary?.json ?? {}, failedRows };
}

/** Rows of the opt-out table, each one of the corpus's spellings of a number, and what it is. */
const OPT_OUT_ROWS: Array<[string | number, string]> = [
	['٠٥٤١١١٠٠١٠', 'Arabic-Indic digits'],
	[35551234, 'a numeric column that lost the leading 0'],
	[722000100, 'a numeric column that lost the leading 0'],
	['+44 (0)20 7946 0958', 'a UK number with its trunk 0 in brackets'],
	['\u200f054-111-0010\u200e', 'the first again, inside invisible direction marks'],
];

/** The Campaign options by their names in the editor. */
const OPTION_NAMES: Record<string, string> = {
	advertisement: 'Advertisement',
	optOuts: 'Skip Opted-Out Numbers',
	sendingWindow: 'Sending Window',
	outsideWindow: 'Outside the Sending Window',
	output: 'Output',
};

/** A value as the report can show it: invisible characters written `<U+200F>`. */
const shown = (value: unknown) =>
	JSON.stringify(value).replace(
		/\p{Cf}/gu,
		(char) => `<U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}>`,
	);

/** The campaign's recipients: four who opted out (in other spellings), one listed twice, a bad row. */
const RECIPIENTS = [
	{ phone: '054-111-0010', name: 'Dana' },
	{ phone: '03-555-1234', name: 'Hummus Abu Yossi' },
	{ phone: '0521234567', name: 'Noa' },
	{ phone: '+972 72-200-0100', name: 'Office line' },
	{ phone: '052-123-4567', name: 'Noa (listed twice)' },
	{ phone: '0044 20 7946 0958', name: 'Oliver' },
	{ phone: '0537654321', name: 'Amir' },
	{ phone: 'call me', name: 'Rina' },
	{ phone: '+972-54-111-0010', name: 'Dana (listed twice)' },
];

/** The corpus's spellings (test/fixtures/field-data/phones.json): the demo's rows are among them. */
function corpusValues(): unknown[] {
	const file = new URL('../../test/fixtures/field-data/phones.json', import.meta.url);
	const corpus = JSON.parse(readFileSync(file, 'utf8')) as {
		numbers: Array<{ spellings: Array<{ value: unknown }> }>;
	};
	return corpus.numbers.flatMap((number) => number.spellings.map((spelling) => spelling.value));
}

/** A §30A campaign that skips opted-out numbers written in other spellings, ending with its Summary. */
export async function optOutCampaign({ say, sandbox, credentials, timezone, facts }: DemoRun) {
	const corpus = corpusValues();
	for (const [value] of OPT_OUT_ROWS)
		check(corpus.includes(value), `${JSON.stringify(value)} is not a spelling of the corpus`);
	const campaign = await runCampaignExample({
		credentials,
		timezone,
		optOutRows: OPT_OUT_ROWS.map(([phone]) => ({ phone })),
		recipients: RECIPIENTS,
	});
	const { send, optOuts, recipients, recorder } = campaign.nodes;
	say(
		`examples/${CAMPAIGN_EXAMPLE}: Schedule Trigger → ${optOuts.name} → ${recipients.name} → Bulk SMS → Send → error output → ${recorder.name}`,
	);
	say(
		"n8n's Data table nodes need an n8n server: here their rows are pinned, as n8n's editor pins data",
	);
	say(`${optOuts.name} (spellings from test/fixtures/field-data/phones.json):`);
	for (const line of table(
		['phone', 'written as'],
		OPT_OUT_ROWS.map(([value, what]) => [shown(value), what]),
	))
		say(`  ${line}`);
	const messages = sandbox.control
		.requests({ service: 'sms', operation: 'send_sms' })
		.flatMap((request) => request.body as IDataObject[]);
	const sentText = text(messages[0]?.message);
	const options = Object.keys(send.parameters.campaign as IDataObject).map(
		(key) => OPTION_NAMES[key] ?? key,
	);
	say(`Campaign options: ${options.join(', ')}; Options → Send Once per Number`);
	say('What the service received, the same for every recipient (Campaign → Advertisement):');
	for (const line of sentText.split('\n')) say(`  ${line}`);
	const sent = messages.map((message) => text(message.dest));
	say(
		`Sent to ${sent.length} of ${RECIPIENTS.length} rows: ${sent.join(', ')}` +
			(messages[0]?.sendtime ? ` (held by the service until ${text(messages[0].sendtime)})` : ''),
	);
	say(`Error output → ${recorder.name}: ${campaign.failedRows.length} row`);
	for (const row of campaign.failedRows)
		say(`  ${text(row.json.phone)} (${text(row.json.name)}): ${text(row.json.error)}`);
	say('The Summary, the one item of the run:');
	for (const line of JSON.stringify(campaign.summary, null, 2).split('\n')) say(`  ${line}`);
	checkCampaign(campaign, sentText, sent);
	// The steps after this one count their own requests.
	sandbox.control.clearRequests();
	facts.campaign = {
		text: sentText,
		sent,
		summary: campaign.summary,
		failedRows: campaign.failedRows.map((row) => row.json),
	};
}

/** What the run must show: only Noa and Amir texted, each reason counted once, the bad row recorded. */
function checkCampaign(campaign: CampaignRun, sentText: string, sent: string[]): void {
	const { summary, failedRows } = campaign;
	check(sentText.startsWith('פרסומת: '), `the message sent is no advertisement: ${sentText}`);
	check(
		sent.join() === '0521234567,0537654321',
		`only the two who did not opt out should be texted, once each (sent: ${sent.join(', ')})`,
	);
	const notSent = summary.notSent as Record<string, number>;
	check(
		notSent.optedOut === 5 && notSent.sameNumber === 1 && notSent.outsideWindow === 0,
		`the Summary should count 5 opted out and 1 same number: ${JSON.stringify(notSent)}`,
	);
	const counted = Number(summary.sent) + Number(summary.scheduled) + Number(summary.failed) + 5 + 1;
	check(
		counted === summary.recipients && summary.recipients === 8 && summary.failedItems === 1,
		`the Summary's counts should add up to its 8 recipients: ${JSON.stringify(summary)}`,
	);
	check(
		failedRows.length === 1 && failedRows[0].json.phone === 'call me',
		`the bad row should be on the error output for ${campaign.nodes.recorder.name}`,
	);
}
