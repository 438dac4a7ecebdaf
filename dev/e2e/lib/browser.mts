/**
 * The n8n editor in Debian's Chromium (playwright-core): signs in, opens a workflow, checks every
 * node is on the canvas without a parameter issue and shows no `[ERROR:` under a parameter, opens
 * each node's panel with its operation dropdown open, finds the package's nodes in the node panel,
 * and saves screenshots (into docs/screenshots only when asked: see run.mts).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { chromium, type Page } from 'playwright-core';

import { OWNER, type N8nServer } from '../../harness/n8n/server.mts';
import { CHROMIUM } from '../../harness/n8n/install.mts';

// Without the background-networking flags Chromium keeps dialling hosts this closed network refuses.
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export interface EditorNode {
	/** Node name on the canvas. */
	name: string;
	/** Screenshot file name (PNG) under the output folder. */
	shot: string;
	/** Open the Operation dropdown before the screenshot (action nodes). */
	openOperation?: boolean;
	/** A parameter's label to scroll into view before the screenshot (e.g. Send's Campaign). */
	scrollTo?: string;
}

export interface EditorReport {
	screenshots: string[];
	problems: string[];
}

export async function captureEditor(
	n8n: N8nServer,
	workflowId: string,
	nodes: EditorNode[],
	outDir: string,
	nodePanelSearches: Array<{ query: string; expect: string; shot: string }>,
): Promise<EditorReport> {
	if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
	mkdirSync(outDir, { recursive: true });
	const report: EditorReport = { screenshots: [], problems: [] };
	const browser = await chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_ARGS,
	});
	try {
		const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
		await signIn(page, n8n.url);
		await page.goto(`${n8n.url}/workflow/${workflowId}`);
		await page.locator('[data-test-id="canvas-node"]').first().waitFor({ timeout: 60_000 });
		await page.waitForTimeout(1500);
		const shoot = async (file: string) => {
			const path = join(outDir, file);
			await page.screenshot({ path });
			report.screenshots.push(path);
		};
		await shoot('editor-canvas.png');

		for (const node of nodes) await visitNode(page, node, report, shoot);

		for (const search of nodePanelSearches) {
			await page.locator('[data-test-id="node-creator-plus-button"]').click();
			await page.keyboard.type(search.query, { delay: 30 });
			await page.waitForTimeout(1500);
			const creator = page.locator('[data-test-id="node-creator"]');
			const text =
				(await creator.count()) > 0
					? await creator.innerText()
					: await page.locator('body').innerText();
			if (!text.includes(search.expect))
				report.problems.push(
					`"${search.expect}" is missing from the node panel (searched "${search.query}")`,
				);
			await shoot(search.shot);
			await page.keyboard.press('Escape');
			await page.waitForTimeout(500);
		}
	} finally {
		await browser.close();
	}
	return report;
}

/** Opens one node's panel: checks it on the canvas and in its panel, and takes its screenshot. */
async function visitNode(
	page: Page,
	node: EditorNode,
	report: EditorReport,
	shoot: (file: string) => Promise<void>,
): Promise<void> {
	// Exact name: "Virtual Number" must not match "Virtual Number Trigger".
	const canvasNode = page
		.locator('[data-test-id="canvas-node"]')
		.filter({ has: page.getByText(node.name, { exact: true }) });
	if ((await canvasNode.count()) === 0) {
		report.problems.push(`node "${node.name}" is not on the canvas`);
		return;
	}
	if ((await canvasNode.locator('[data-test-id="node-issues"]').count()) > 0) {
		report.problems.push(`node "${node.name}" shows a parameter issue on the canvas`);
	}
	await canvasNode.first().dblclick();
	await page.locator('[data-test-id="ndv"]').waitFor({ timeout: 20_000 });
	await page.waitForTimeout(800);
	if ((await page.locator('[data-test-id="ndv"] [data-test-id="parameter-issues"]').count()) > 0) {
		report.problems.push(`node "${node.name}" shows a parameter issue in its panel`);
	}
	for (const error of await shownErrors(page))
		report.problems.push(`node "${node.name}" shows ${error} under a parameter`);
	const webhookUrls = page
		.locator('[data-test-id="ndv"]')
		.getByText('Webhook URLs', { exact: true });
	if ((await webhookUrls.count()) > 0) {
		await webhookUrls.first().click();
		await page.waitForTimeout(600);
	}
	if (node.openOperation) {
		await page.locator('[data-test-id="ndv"] [data-test-id="parameter-input-operation"]').click();
		await page.waitForTimeout(600);
	}
	if (node.scrollTo) await scrollToParameter(page, node.scrollTo, node.name, report);
	await shoot(node.shot);
	await page.keyboard.press('Escape');
	await page
		.locator('[data-test-id="ndv-close-button"]')
		.click({ timeout: 5000 })
		.catch(() => undefined);
	await page
		.locator('[data-test-id="ndv"]')
		.waitFor({ state: 'hidden', timeout: 10_000 })
		.catch(() => undefined);
}

async function scrollToParameter(
	page: Page,
	label: string,
	nodeName: string,
	report: EditorReport,
): Promise<void> {
	const parameter = page.locator('[data-test-id="ndv"]').getByText(label, { exact: true });
	if ((await parameter.count()) === 0) {
		report.problems.push(`node "${nodeName}" shows no parameter "${label}"`);
		return;
	}
	await parameter.first().scrollIntoViewIfNeeded();
	await page.waitForTimeout(600);
}

/**
 * The errors n8n writes under parameters (an expression's preview, e.g. `[ERROR: Cannot access
 * "caller" due to security concerns]`), read from the parameter panel's text.
 */
async function shownErrors(page: Page): Promise<string[]> {
	const panel = page.locator('[data-test-id="ndv"] [data-test-id="node-parameters"]');
	const text =
		(await panel.count()) > 0
			? await panel.first().innerText()
			: await page.locator('[data-test-id="ndv"]').innerText();
	return [...text.matchAll(/\[ERROR:[^\]\n]*\]?/g)].map((match) => match[0]);
}

async function signIn(page: Page, url: string): Promise<void> {
	await page.goto(`${url}/signin`);
	await page.locator('input').first().waitFor({ timeout: 60_000 });
	await page.locator('input').nth(0).fill(OWNER.email);
	await page.locator('input').nth(1).fill(OWNER.password);
	await page.getByRole('button', { name: 'Sign in' }).click();
	await page.waitForURL((target) => !target.pathname.includes('signin'), { timeout: 60_000 });
}
