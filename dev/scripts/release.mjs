// `npm run release`: tags the version in package.json once it is ready; pushing the tag runs
// .github/workflows/publish.yml, which publishes to npm with provenance (n8n accepts community packages
// only when published that way, from GitHub Actions).
//
// `node dev/scripts/release.mjs --guard` (package.json's prepublishOnly): refuses `npm publish` anywhere but
// the publish workflow of a version tag (or a --dry-run), then runs the checks. A publish from a laptop
// has no provenance: besides this guard (npm skips it where scripts are off, as this repo's .npmrc
// does), publishConfig.provenance makes npm itself refuse to publish outside a CI it can attest.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = new URL('../..', import.meta.url).pathname;

/** What must pass before a version is tagged or published (CI runs these and more: .ci/run). */
export const CHECKS = ['lint', 'typecheck', 'test', 'scan'];

/** Why this version cannot be released as it stands: [] when it can. */
export function releaseProblems({ version, changelog, tags, branch, dirty }) {
	const problems = [];
	if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version))
		problems.push(`package.json version "${version}" is not x.y.z`);
	if (!changelogSection(changelog, version)) {
		problems.push(
			`CHANGELOG.md has no "## [${version}] - YYYY-MM-DD" section: move the Unreleased entries into one`,
		);
	}
	if (tags.includes(version))
		problems.push(`the tag ${version} exists already: bump the version first`);
	if (branch !== 'main')
		problems.push(`releases are tagged on main (this is ${branch || 'a detached HEAD'})`);
	if (dirty) problems.push('the working tree has uncommitted changes');
	return problems;
}

/** The CHANGELOG section of a version, in Keep a Changelog form, with a date and at least one entry. */
export function changelogSection(changelog, version) {
	const escaped = version.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	const heading = new RegExp(`^## \\[${escaped}\\] - \\d{4}-\\d{2}-\\d{2}[ \\t]*$`, 'm');
	const match = heading.exec(changelog);
	if (!match) return undefined;
	const rest = changelog.slice(match.index + match[0].length);
	const body = rest.split(/^## /m)[0];
	return /^\s*- \S/m.test(body) ? body.trim() : undefined;
}

/** Why `npm publish` may not go on here: undefined when it may. */
export function publishRefusal(env, version) {
	if (env.npm_config_dry_run === 'true') return undefined;
	if (env.GITHUB_ACTIONS !== 'true') {
		return 'npm publish runs only in .github/workflows/publish.yml (npm provenance, which n8n requires). Run `npm run release` to tag the version.';
	}
	if (env.GITHUB_REF_TYPE !== 'tag' || env.GITHUB_REF_NAME !== version) {
		return `publishing ${version} needs the tag ${version} (this run is for ${env.GITHUB_REF_TYPE ?? 'no'} ref "${env.GITHUB_REF_NAME ?? ''}")`;
	}
	return undefined;
}

function git(...args) {
	const result = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
	if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
	return result.stdout.trim();
}

function runChecks() {
	for (const check of CHECKS) {
		console.log(`== npm run ${check}`);
		const result = spawnSync('npm', ['run', check], { cwd: ROOT, stdio: 'inherit' });
		if (result.status !== 0) {
			console.error(`npm run ${check} failed: nothing is released`);
			process.exit(1);
		}
	}
}

function fail(lines) {
	for (const line of lines) console.error(`release: ${line}`);
	process.exit(1);
}

function guard(version) {
	const refusal = publishRefusal(process.env, version);
	if (refusal) fail([refusal]);
	runChecks();
}

function release(version) {
	const problems = releaseProblems({
		version,
		changelog: readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8'),
		tags: git('tag', '--list').split('\n'),
		branch: git('branch', '--show-current'),
		dirty: git('status', '--porcelain') !== '',
	});
	if (problems.length > 0) fail(problems);
	runChecks();
	git('tag', '--annotate', version, '--message', version);
	console.log(`Tagged ${version}. Publish it: git push origin main ${version}`);
	console.log(
		'(publish.yml publishes the tag to npm with provenance; then `npx @n8n/scan-community-package n8n-nodes-virtualnum` checks all three legs.)',
	);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
	const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
	if (process.argv.includes('--guard')) guard(version);
	else release(version);
}
