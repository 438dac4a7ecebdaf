/**
 * Every file of examples/ is a workflow n8n 2.40 imports and runs as it is: valid JSON, one trigger
 * (a core trigger of n8n-nodes-base 2.40.2 at an existing typeVersion, or this package's trigger),
 * every other node one of this package's nodes (or, where an example needs one, a listed core
 * action node: Postgres in the CRM sync), connections between existing nodes, every
 * parameter of our nodes one the node defines and shows for the chosen resource and operation,
 * with valid values and no issue n8n's editor would flag, and the credentials by name.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import type { INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { loadPackage } from '../../dev/harness/engine.mts';
import {
	CORE_TRIGGERS,
	EXAMPLES_DIR,
	OUR_POLL_TRIGGER,
	exampleFiles,
	isOurs,
	isTrigger,
	asINode,
	loadExample,
	pinnedItems,
	triggerOf,
	type ExampleWorkflow,
} from '../../dev/demo/workflows.mts';
import { checkStructure } from './structureCheck.mts';
import { newestVersion, parameterProblems } from './parameterCheck.mts';

/** The files the README lists; a new example must be added here and there. */
const EXPECTED_FILES = [
	'blacklist-caller-from-form.json',
	'call-ended-download-recording.json',
	'call-records-poll-to-sheet.json',
	'call-started-route-from-data-table.json',
	'call-started-route-vip.json',
	'click-to-call-from-webhook.json',
	'crm-deal-won-value-to-call.json',
	'crm-sync-call-records.json',
	'missed-call-text-back.json',
	'nightly-call-record-export.json',
	'sms-campaign-scheduled.json',
	'sms-campaign-skip-opted-out.json',
	'sms-delivery-reports.json',
	'sms-ledger-campaign.json',
	'sms-ledger-daily-summary.json',
	'sms-ledger-delivery-reports.json',
	'sms-ledger-resend-failed.json',
	'sms-opt-out-to-data-table.json',
];

/**
 * The core triggers allowed, as n8n-nodes-base 2.40.2 defines them: every typeVersion it has, and
 * the top-level parameter names of each (checked against the installed n8n-nodes-base below,
 * when the e2e install is present).
 */
const CORE: Record<string, { file: string; versions: number[]; parameters: string[] }> = {
	'n8n-nodes-base.scheduleTrigger': {
		file: 'Schedule/ScheduleTrigger.node.js',
		versions: [1, 1.1, 1.2, 1.3, 1.4],
		parameters: ['rule'],
	},
	'n8n-nodes-base.formTrigger': {
		file: 'Form/v2/FormTriggerV2.node.js',
		versions: [2, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6],
		parameters: ['formTitle', 'formDescription', 'formFields', 'responseMode', 'options'],
	},
	'n8n-nodes-base.webhook': {
		file: 'Webhook/Webhook.node.js',
		versions: [1, 1.1, 2, 2.1],
		parameters: [
			'multipleMethods',
			'httpMethod',
			'path',
			'responseMode',
			'responseData',
			'responseBinaryPropertyName',
			'options',
		],
	},
};

/**
 * The core action nodes an example may use (type → the examples using it, its typeVersion, its
 * credential): the CRM sync writes into the user's own database, which this package cannot do.
 * Checked against the installed n8n-nodes-base below, when the e2e install is present; the e2e
 * queue-mode run (`npm run e2e:queue`) runs them against a real Postgres.
 */
const CORE_ACTIONS: Record<string, { examples: string[]; version: number; credential?: string }> = {
	// n8n's own store and flow nodes need no credential (the do-not-send list, VIP routing, the
	// campaign ledger and its summary).
	'n8n-nodes-base.dataTable': {
		examples: [
			'sms-opt-out-to-data-table.json',
			'sms-campaign-skip-opted-out.json',
			'call-started-route-vip.json',
			'call-started-route-from-data-table.json',
			'sms-ledger-campaign.json',
			'sms-ledger-delivery-reports.json',
			'sms-ledger-daily-summary.json',
			'sms-ledger-resend-failed.json',
			'missed-call-text-back.json',
		],
		version: 1.1,
	},
	// Once per caller per day: n8n keeps the keys it saw in its database.
	'n8n-nodes-base.removeDuplicates': { examples: ['missed-call-text-back.json'], version: 2 },
	'n8n-nodes-base.if': {
		examples: ['sms-opt-out-to-data-table.json', 'crm-deal-won-value-to-call.json'],
		version: 2.2,
	},
	// A webhook's answers: the CRM learns what became of its request (stored, no call, refused).
	'n8n-nodes-base.switch': { examples: ['crm-deal-won-value-to-call.json'], version: 3.2 },
	'n8n-nodes-base.respondToWebhook': {
		examples: ['crm-deal-won-value-to-call.json'],
		version: 1.5,
	},
	'n8n-nodes-base.set': {
		examples: ['sms-ledger-daily-summary.json'],
		version: 3.4,
	},
	'n8n-nodes-base.summarize': { examples: ['sms-ledger-daily-summary.json'], version: 1.1 },
	'n8n-nodes-base.postgres': {
		examples: ['crm-sync-call-records.json'],
		version: 2.6,
		credential: 'postgres',
	},
	'n8n-nodes-base.googleSheets': {
		examples: ['call-records-poll-to-sheet.json'],
		version: 4.5,
		credential: 'googleSheetsOAuth2Api',
	},
};

const CREDENTIALS: Record<string, { id: string; name: string }> = {
	virtualnumApi: { id: '1', name: 'Virtual Number sandbox' },
	virtualnumSmsApi: { id: '2', name: 'SMS sandbox' },
	postgres: { id: '3', name: 'CRM database' },
	googleSheetsOAuth2Api: { id: '4', name: 'Google Sheets account' },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let descriptions: Map<string, INodeTypeDescription>;

before(async () => {
	const loader = await loadPackage();
	descriptions = new Map(
		['virtualNumber', 'bulkSms', 'virtualNumberTrigger', 'virtualNumberCallRecordTrigger'].map(
			(name) => [
				`n8n-nodes-virtualnum.${name}`,
				(loader.getNode(name).type as INodeType).description,
			],
		),
	);
});

const N8N_NODES_BASE = fileURLToPath(
	new URL('../../dev/e2e/node_modules/n8n-nodes-base/', import.meta.url),
);

/** The node descriptions n8n's editor uses (n8n-nodes-base's dist/types/nodes.json), when the e2e install is present. */
function installedCoreDescriptions():
	| {
			version: string;
			byName: (name: string, typeVersion: number) => INodeTypeDescription | undefined;
	  }
	| undefined {
	const file = `${N8N_NODES_BASE}dist/types/nodes.json`;
	if (!existsSync(file)) return undefined;
	const all = JSON.parse(readFileSync(file, 'utf8')) as INodeTypeDescription[];
	const { version } = JSON.parse(readFileSync(`${N8N_NODES_BASE}package.json`, 'utf8')) as {
		version: string;
	};
	return {
		version,
		byName: (name, typeVersion) =>
			all.find(
				(description) =>
					description.name === name &&
					([] as number[]).concat(description.version).includes(typeVersion),
			),
	};
}

describe('examples/', () => {
	test('holds exactly the listed example files', () => {
		assert.deepEqual(exampleFiles(), EXPECTED_FILES);
	});

	test('the core triggers and action nodes are valid for the installed n8n-nodes-base (its nodes.json), when the e2e install is present', (t) => {
		const installed = installedCoreDescriptions();
		if (!installed) {
			t.skip('n8n-nodes-base is not installed under e2e/node_modules');
			return;
		}
		assert.equal(installed.version, '2.40.2');
		for (const [type, core] of Object.entries(CORE)) {
			const name = type.replace('n8n-nodes-base.', '');
			for (const version of core.versions)
				assert.ok(installed.byName(name, version), `${type} has typeVersion ${version}`);
			for (const parameter of core.parameters) {
				const description = installed.byName(name, core.versions[core.versions.length - 1])!;
				assert.ok(
					description.properties.some((property) => property.name === parameter),
					`${type} defines ${parameter}`,
				);
			}
		}
		for (const file of EXPECTED_FILES) {
			const workflow = loadExample(file);
			const trigger = triggerOf(workflow);
			const core = workflow.nodes.filter((node) =>
				node === trigger ? !isOurs(node.type) : CORE_ACTIONS[node.type] !== undefined,
			);
			for (const node of core) {
				const description = installed.byName(
					node.type.replace('n8n-nodes-base.', ''),
					node.typeVersion,
				);
				assert.ok(description, `${file}: ${node.type} has no typeVersion ${node.typeVersion}`);
				assert.deepEqual(parameterProblems(node, description), [], `${file}: ${node.name}`);
			}
		}
	});

	for (const file of EXPECTED_FILES) {
		describe(file, () => {
			let workflow: ExampleWorkflow;
			before(() => {
				const raw = readFileSync(`${EXAMPLES_DIR}/${file}`, 'utf8');
				workflow = JSON.parse(raw) as ExampleWorkflow;
			});

			test("passes n8n's own structure check of imported workflows (n8n-workflow 2.40.1, as in n8n 2.40.7)", (t) => {
				checkStructure(t, workflow);
			});

			test('is an n8n workflow: name, nodes with unique ids and names, positions, settings', () => {
				assert.equal(typeof workflow.name, 'string');
				assert.ok(workflow.name.length > 0);
				assert.ok(Array.isArray(workflow.nodes) && workflow.nodes.length >= 1);
				assert.equal(typeof workflow.connections, 'object');
				assert.equal(workflow.settings?.executionOrder, 'v1');
				assert.equal(workflow.active, false, 'examples are imported inactive');
				const ids = workflow.nodes.map((node) => node.id);
				const names = workflow.nodes.map((node) => node.name);
				assert.equal(new Set(ids).size, ids.length, 'node ids are unique');
				assert.equal(new Set(names).size, names.length, 'node names are unique');
				for (const node of workflow.nodes) {
					assert.match(node.id, UUID, `${node.name}: id`);
					assert.ok(
						Array.isArray(node.position) &&
							node.position.length === 2 &&
							node.position.every(Number.isFinite),
						`${node.name}: position`,
					);
					assert.equal(typeof node.parameters, 'object', `${node.name}: parameters`);
					assert.notEqual(node.name, 'Start', 'the name Start is the harness start node');
				}
			});

			test('has exactly one trigger, first in the flow, and every other node is one of this package or a listed core action node', () => {
				const trigger = triggerOf(workflow);
				for (const node of workflow.nodes) {
					if (node === trigger) continue;
					const core = CORE_ACTIONS[node.type];
					if (core) {
						assert.ok(
							core.examples.includes(file),
							`${node.name}: ${node.type} is not listed for ${file}`,
						);
						assert.equal(node.typeVersion, core.version, `${node.name}: typeVersion`);
						assert.deepEqual(
							node.credentials,
							core.credential ? { [core.credential]: CREDENTIALS[core.credential] } : undefined,
							`${node.name}: credentials`,
						);
						continue;
					}
					assert.ok(
						isOurs(node.type),
						`${node.name}: ${node.type} is not a node of n8n-nodes-virtualnum`,
					);
					assert.ok(!isTrigger(node), `${node.name}: a second trigger`);
					assert.ok(
						descriptions.has(node.type),
						`${node.name}: ${node.type} is not a node this package has`,
					);
					assert.equal(
						node.typeVersion,
						newestVersion(descriptions.get(node.type)!),
						`${node.name}: typeVersion (the version n8n gives a new node)`,
					);
				}
				if (isOurs(trigger.type)) {
					assert.equal(trigger.typeVersion, newestVersion(descriptions.get(trigger.type)!));
				} else {
					assert.ok(
						CORE_TRIGGERS.includes(trigger.type),
						`${trigger.type} is not an allowed core trigger`,
					);
					const core = CORE[trigger.type];
					assert.ok(
						core.versions.includes(trigger.typeVersion),
						`${trigger.type} has no typeVersion ${trigger.typeVersion} in n8n-nodes-base 2.40.2`,
					);
					for (const key of Object.keys(trigger.parameters)) {
						assert.ok(
							core.parameters.includes(key),
							`${trigger.name}: ${trigger.type} has no parameter ${key}`,
						);
					}
					assert.equal(
						trigger.credentials,
						undefined,
						`${trigger.name}: the core trigger needs no credential here`,
					);
				}
				// Schedule and polling triggers have no URL.
				if (
					trigger.type !== 'n8n-nodes-base.scheduleTrigger' &&
					trigger.type !== OUR_POLL_TRIGGER
				) {
					assert.match(
						String(trigger.webhookId),
						UUID,
						`${trigger.name}: a webhook trigger has a webhookId, so its URL stays the same on import`,
					);
				}
			});

			test('connections go from existing nodes to existing nodes, and reach every node from the trigger', () => {
				const names = new Set(workflow.nodes.map((node) => node.name));
				const trigger = triggerOf(workflow);
				const edges: Array<[string, string]> = [];
				for (const [from, byType] of Object.entries(workflow.connections)) {
					assert.ok(names.has(from), `connection from "${from}", which is not a node`);
					for (const [type, outputs] of Object.entries(byType)) {
						assert.equal(type, 'main');
						for (const targets of outputs) {
							for (const target of targets) {
								assert.ok(
									names.has(target.node),
									`connection from "${from}" to "${target.node}", which is not a node`,
								);
								assert.equal(target.type, 'main');
								assert.equal(target.index, 0);
								assert.notEqual(target.node, trigger.name, 'nothing leads into the trigger');
								edges.push([from, target.node]);
							}
						}
					}
				}
				const reached = new Set([trigger.name]);
				for (let grew = true; grew; ) {
					grew = false;
					for (const [from, to] of edges) {
						if (reached.has(from) && !reached.has(to)) {
							reached.add(to);
							grew = true;
						}
					}
				}
				assert.deepEqual(
					[...reached].sort(),
					[...names].sort(),
					'every node is reached from the trigger',
				);
			});

			test('pins sample items on the trigger, and only on existing nodes', () => {
				const trigger = triggerOf(workflow);
				for (const name of Object.keys(workflow.pinData ?? {})) {
					assert.ok(
						workflow.nodes.some((node) => node.name === name),
						`pinned data on "${name}", which is not a node`,
					);
				}
				const items = pinnedItems(workflow, trigger.name);
				assert.ok(items.length > 0);
				for (const item of workflow.pinData![trigger.name]) {
					assert.deepEqual(Object.keys(item), ['json'], 'a pinned item is { json }');
					assert.ok(item.json && typeof item.json === 'object' && !Array.isArray(item.json));
				}
			});

			test('every parameter of our nodes is one the node defines and shows, with a valid value', () => {
				for (const node of workflow.nodes.filter((candidate) => isOurs(candidate.type))) {
					const problems = parameterProblems(node, descriptions.get(node.type)!);
					assert.deepEqual(problems, [], `${node.name}`);
				}
			});

			test('our nodes reference their credentials by name: "Virtual Number sandbox" (id 1), "SMS sandbox" (id 2)', () => {
				for (const node of workflow.nodes.filter((candidate) => isOurs(candidate.type))) {
					// The credentials the node shows for its settings: not one it hides for the chosen operation
					// (Route Incoming Call sends no request), nor the n8n API one it asks only for Data Table look-ups.
					const description = descriptions.get(node.type)!;
					const wanted = (description.credentials ?? [])
						.filter((credential) =>
							NodeHelpers.displayParameter(
								asINode(node).parameters,
								credential,
								asINode(node),
								description,
							),
						)
						.map((credential) => credential.name)
						.sort();
					assert.deepEqual(
						Object.keys(node.credentials ?? {}).sort(),
						wanted,
						`${node.name}: credentials`,
					);
					for (const type of wanted)
						assert.deepEqual(node.credentials![type], CREDENTIALS[type], `${node.name}: ${type}`);
				}
			});
		});
	}
});
