/** n8n's own structure check of an imported workflow, shared by the examples' tests. */
import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';

import { safeParseWorkflowStructure } from '../../dev/harness/n8nCompat.mts';

/** Passes when n8n (n8n-workflow 2.x) would import the workflow; skipped on 1.x, which has no such check. */
export function checkStructure(t: TestContext, workflow: unknown): void {
	if (!safeParseWorkflowStructure)
		return t.skip('n8n-workflow 1.x has no such check (n8n 1.x imports without it)');
	const result = safeParseWorkflowStructure(structuredClone(workflow));
	assert.equal(result.success, true, JSON.stringify(result.success ? '' : result.issues));
}
