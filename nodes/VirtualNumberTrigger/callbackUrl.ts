/**
 * Whether this trigger's URL can be registered at all: an http(s) address that, with the secret
 * and the trigger's own parameters, fits the service's limit. The URL's format (what it carries,
 * and what any number's URL tells) is shared with the Virtual Number node: nodes/shared/triggerUrl.ts.
 */
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { LIMITS } from '../shared/checks';
import { DEFAULT_OPTION, registeredUrl, type UrlMode } from '../shared/triggerUrl';

/** Why a callback URL cannot be registered on a number, or undefined when it can. */
function callbackUrlProblem(url: string): string | undefined {
	if (!/^https?:\/\/[^\s/]+/i.test(url)) return 'must be an http:// or https:// address';
	const max = LIMITS.callbackUrl.maxLength;
	if (url.length > max)
		return `is ${url.length} characters long; the service accepts at most ${max}`;
	return undefined;
}

/**
 * Checks the trigger's URL before any request: an http(s) address that, with the secret and the
 * trigger's own parameters, fits the service's limit on a callback URL.
 */
export function checkTriggerUrl(
	node: INode,
	webhookUrl: string,
	secret: string,
	mode: UrlMode,
): void {
	// The shortest URL the trigger registers: on a number that had no callback URL.
	const problem = callbackUrlProblem(
		registeredUrl(webhookUrl, secret, mode, { url: '', option: DEFAULT_OPTION }),
	);
	if (problem) {
		throw new NodeOperationError(
			node,
			`Callback URL: the trigger's URL${secret ? ' with the secret' : ''} ${problem}`,
			{
				description: secret
					? 'Use a shorter Secret, or set a shorter WEBHOOK_URL for n8n.'
					: "Set n8n's WEBHOOK_URL to the public https:// address the service can reach.",
			},
		);
	}
}
