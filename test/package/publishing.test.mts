/**
 * What n8n's verification and a real n8n see of the package besides its nodes' behaviour: the
 * publishing fields of package.json, the documentation links n8n shows (credentials' documentationUrl,
 * the codex files' resources), the icons, the n8n-workflow API the compiled package needs, and the
 * GitHub workflows that publish it (parsed as YAML, with the keys n8n's node starter template has).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { parse } from 'yaml';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REPOSITORY = 'https://github.com/n8n-nodes-virtualnum/n8n-nodes-virtualnum';
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** GitHub's heading anchors (github-slugger): lower case, punctuation dropped, spaces to hyphens. */
function anchorsOf(markdown: string): Set<string> {
	const headings = markdown.split('\n').filter((line) => /^#{1,6} /.test(line));
	return new Set(
		headings.map((line) =>
			line
				.replace(/^#+ /, '')
				.trim()
				.toLowerCase()
				.replace(/[^\p{L}\p{N}\s_-]/gu, '')
				.replace(/\s/g, '-'),
		),
	);
}

/** A documentation URL must open a README section or a docs/ page of this repository that exists. */
function documentationProblem(url: string): string | undefined {
	if (!url.startsWith(REPOSITORY)) return `${url} is not on ${REPOSITORY}`;
	const [path, anchor] = url.slice(REPOSITORY.length).split('#');
	const file = path === '' ? 'README.md' : /^\/blob\/main\/(docs\/[\w./-]+\.md)$/.exec(path)?.[1];
	if (!file) return `${url}: neither the README nor a docs/*.md page on main`;
	if (!existsSync(join(ROOT, file))) return `${url}: ${file} does not exist`;
	if (anchor && !anchorsOf(readFileSync(join(ROOT, file), 'utf8')).has(anchor)) {
		return `${url}: ${file} has no heading with the anchor #${anchor} (a renamed heading? update the link)`;
	}
	return undefined;
}

describe('package.json: what n8n and npm need to publish and verify the package', () => {
	test('repository, homepage and bugs name the one public GitHub repository', () => {
		assert.deepEqual(pkg.repository, { type: 'git', url: `git+${REPOSITORY}.git` });
		assert.equal(pkg.homepage, `${REPOSITORY}#readme`);
		assert.deepEqual(pkg.bugs, { url: `${REPOSITORY}/issues` });
	});

	test('the author has a name and an email that is not a placeholder (n8n checks both)', () => {
		assert.ok(pkg.author.name.trim().length > 0);
		assert.match(pkg.author.email, /^[^@\s]+@[^@\s]+\.[a-z]+$/);
		assert.doesNotMatch(
			pkg.author.email,
			/\.(invalid|test|example|localhost)$|@example\.(com|org|net)$/,
		);
	});

	test('npm publishes it only with provenance, publicly', () => {
		assert.deepEqual(pkg.publishConfig, { access: 'public', provenance: true });
		assert.equal(pkg.scripts.prepublishOnly, 'node dev/scripts/release.mjs --guard');
		assert.equal(pkg.scripts.release, 'node dev/scripts/release.mjs');
	});

	test('n8n-workflow is the only peer dependency, as "*" (n8n\'s scanner refuses a range; docs/install.md states it)', () => {
		assert.deepEqual(pkg.peerDependencies, { 'n8n-workflow': '*' });
		assert.equal(pkg.dependencies, undefined);
		assert.match(readFileSync(join(ROOT, 'docs/install.md'), 'utf8'), /n8n 1\.85/);
	});

	test('the CHANGELOG ships with the compiled package', () => {
		assert.deepEqual(pkg.files, ['dist', 'CHANGELOG.md']);
	});
});

describe('documentation links n8n shows', () => {
	test("each credential's documentationUrl opens a section of the repository's documentation", () => {
		const require = createRequire(join(ROOT, 'package.json'));
		for (const file of pkg.n8n.credentials as string[]) {
			const exported = require(join(ROOT, file)) as Record<
				string,
				new () => { documentationUrl: string }
			>;
			for (const Credential of Object.values(exported)) {
				assert.equal(documentationProblem(new Credential().documentationUrl), undefined, file);
			}
		}
	});

	test("each node's codex file links its documentation and its credentials' documentation", () => {
		for (const file of pkg.n8n.nodes as string[]) {
			const codexFile = join(ROOT, file.replace(/^dist\//, '').replace(/\.js$/, '.json'));
			const codex = JSON.parse(readFileSync(codexFile, 'utf8'));
			const urls = [
				...codex.resources.primaryDocumentation,
				...codex.resources.credentialDocumentation,
			].map((resource: { url: string }) => resource.url);
			assert.equal(codex.resources.primaryDocumentation.length, 1, codexFile);
			for (const url of urls) assert.equal(documentationProblem(url), undefined, codexFile);
		}
	});
});

describe('icons', () => {
	const icons = readdirSync(join(ROOT, 'icons')).filter((name) => name.endsWith('.svg'));

	test('draw everything as shapes: no text, so no font decides how they look', () => {
		assert.ok(icons.length > 0);
		for (const name of icons) {
			const svg = readFileSync(join(ROOT, 'icons', name), 'utf8');
			assert.match(svg, /^<svg [^>]*viewBox="0 0 60 60"/, name);
			assert.doesNotMatch(svg, /<text|<tspan|font-family|@font-face|<foreignObject|<image/, name);
		}
	});

	test('every icon has a light and a dark variant', () => {
		for (const name of icons.filter((icon) => !icon.endsWith('.dark.svg'))) {
			assert.ok(icons.includes(name.replace(/\.svg$/, '.dark.svg')), `${name} has no dark variant`);
		}
	});
});

/**
 * The n8n-workflow exports the compiled package uses at run time, each checked to exist in
 * n8n-workflow 1.83.0 (n8n 1.85, the oldest n8n the package supports; NodeConnectionTypes is new in
 * 1.83.0). Using another one: check that 1.83.0 exports it (or feature-detect it), then add it here.
 * tryToParseDateTime: 1.83.0 has it with one argument (value), the only form nodes/shared/dates.ts uses;
 * sleep(ms): in 1.83.0's utils, as in 2.x.
 */
const N8N_WORKFLOW_EXPORTS_IN_1_83 = [
	'NodeApiError',
	'NodeConnectionTypes',
	'NodeOperationError',
	'sleep',
	'tryToParseDateTime',
	'updateDisplayOptions',
];

test('the compiled package uses only n8n-workflow exports that n8n 1.85 has', () => {
	const used = new Set<string>();
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir, { withFileTypes: true })) {
			const path = join(dir, entry.name);
			if (entry.isDirectory()) walk(path);
			else if (entry.name.endsWith('.js')) {
				for (const match of readFileSync(path, 'utf8').matchAll(/\bn8n_workflow_\d+\.(\w+)/g))
					used.add(match[1]);
			}
		}
	};
	walk(join(ROOT, 'dist'));
	assert.ok(used.size > 0, 'dist/ is built and uses n8n-workflow');
	assert.deepEqual(
		[...used].filter((name) => !N8N_WORKFLOW_EXPORTS_IN_1_83.includes(name)),
		[],
	);
});

describe('GitHub workflows', () => {
	const workflow = (name: string) =>
		parse(readFileSync(join(ROOT, '.github/workflows', name), 'utf8'));
	const runs = (job: { steps: Array<{ run?: string }> }) =>
		job.steps.map((step) => step.run ?? '').join('\n');
	const uses = (job: { steps: Array<{ uses?: string }> }) =>
		job.steps.map((step) => step.uses?.split('@')[0]);

	test("publish.yml publishes a version tag from GitHub Actions with npm provenance, as n8n's starter does", () => {
		const publish = workflow('publish.yml');
		assert.deepEqual(publish.on, { push: { tags: ['*.*.*'] } });
		const job = publish.jobs.publish;
		assert.equal(job['runs-on'], 'ubuntu-latest');
		assert.deepEqual(job.permissions, { 'id-token': 'write', contents: 'read' });
		assert.deepEqual(uses(job).filter(Boolean), ['actions/checkout', 'actions/setup-node']);
		const commands = runs(job);
		assert.match(commands, /^npm install --no-audit --no-fund$/m);
		// The guard (prepublishOnly) runs only if scripts run: .npmrc turns them off for installs.
		assert.match(commands, /^npm publish --provenance --access public --ignore-scripts=false$/m);
		assert.match(commands, /npm config set \/\/registry\.npmjs\.org\/:_authToken "\$NPM_TOKEN"/);
		assert.equal(job.steps.at(-1).env.NPM_TOKEN, '${{ secrets.NPM_TOKEN }}');
	});

	test('ci.yml runs .ci/run, and the 1.x suite in its own job that .ci/run then skips', () => {
		const ci = workflow('ci.yml');
		assert.deepEqual(Object.keys(ci.on).sort(), ['pull_request', 'push']);
		assert.deepEqual(ci.on.push, { branches: ['main'] });
		assert.match(runs(ci.jobs.ci), /^bash \.ci\/run$/m);
		assert.equal(ci.jobs.ci.steps.at(-1).env.SKIP_N8N1, 'true');
		assert.match(runs(ci.jobs.n8n1), /^npm run test:n8n1$/m);
		const ciRun = readFileSync(join(ROOT, '.ci/run'), 'utf8');
		assert.match(ciRun, /SKIP_N8N1/);
		assert.match(ciRun, /^step "npm run scan" npm run scan$/m);
		assert.match(ciRun, /^\tstep "npm run test:n8n1" npm run test:n8n1$/m);
	});
});
