/**
 * The trigger's secrets never shown: every error its lifecycle throws and every line it logs has
 * its own Secret masked, with what the shared masker masks anyway (secret-like parameters, URL
 * passwords). The service's text is untrusted and may quote any URL a number carries.
 */
import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { maskError as maskSharedError, maskSecrets } from '../shared/masking';

/** The trigger's own secret, or '' (the parameter may be unreadable in a broken workflow). */
export function ownSecret(this: IHookFunctions): string {
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

/** Writes a log line with every secret masked. */
export function logMasked(
	context: IHookFunctions,
	level: 'info' | 'warn' | 'error',
	message: string,
): void {
	context.logger[level](
		`Virtual Number Trigger: ${maskSecrets(message, [ownSecret.call(context)])}`,
	);
}
