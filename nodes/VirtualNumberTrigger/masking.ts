/**
 * The trigger's secrets never shown: every error its lifecycle throws and every line it logs has
 * its own Secret masked, with what the shared masker masks anyway (secret-like parameters, URL
 * passwords). The service's text is untrusted and may quote any URL a number carries.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { maskError as maskSharedError } from '../shared/masking';
import { generatedSecret } from './callbackSecret';
import { logLine } from './logLine';

/** The trigger's own secret, or '' (the parameter may be unreadable in a broken workflow). */
function ownSecret(this: IHookFunctions): string {
	try {
		return String(((this.getNodeParameter('options', {}) ?? {}) as IDataObject).secret ?? '');
	} catch {
		return '';
	}
}

/** The error with every secret masked wherever n8n shows or stores it (message, description, data). */
export function maskError(error: unknown, secrets: string[]): unknown {
	if (!(error instanceof NodeApiError || error instanceof NodeOperationError)) return error;
	return maskSharedError(error, secrets);
}

/** The secrets of this trigger to mask: the user's Secret and the one generated at activation. */
export function triggerSecrets(context: IHookFunctions): string[] {
	let generated: string | undefined;
	try {
		generated = generatedSecret(context);
	} catch {
		generated = undefined;
	}
	return [ownSecret.call(context), generated ?? ''].filter(Boolean);
}

/** Writes a log line with every secret masked (the user's and the generated one) and no control character. */
export function logMasked(
	context: IHookFunctions,
	level: 'info' | 'warn' | 'error',
	message: string,
): void {
	logLine(context.logger, level, message, { secrets: triggerSecrets(context) });
}
