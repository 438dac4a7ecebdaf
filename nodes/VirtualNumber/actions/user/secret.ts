/**
 * A user's password: its rule, and keeping it out of every output and error: the service might
 * quote it back in a status
 * description, and n8n shows and stores error messages, descriptions and data.
 */
import type { IDataObject, IExecuteFunctions, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import type { InputChecks } from '../../../shared/checks';
import { sendWrite, writeOutput } from '../../helpers/utils';
import { VN_LIMITS } from '../../../shared/limits';

const MASK = '********';

function scrubText(text: string, secrets: string[]): string {
	return secrets.reduce((result, secret) => result.split(secret).join(MASK), text);
}

/** The error as it is when it does not contain `secret`, else a copy with every occurrence masked. */
function withoutSecret(error: unknown, secret: string, node: INode, itemIndex: number): unknown {
	if (secret === '' || !(error instanceof NodeApiError || error instanceof NodeOperationError))
		return error;
	// The secret as it appears raw and inside JSON text (quotes and backslashes escaped).
	const secrets = [...new Set([secret, JSON.stringify(secret).slice(1, -1)])];
	const seen = JSON.stringify({
		message: error.message,
		description: error.description,
		messages: error.messages,
		context: error.context,
		cause: (error as { cause?: unknown }).cause,
	});
	if (!secrets.some((s) => seen.includes(s))) return error;
	const message = scrubText(error.message, secrets);
	const description = scrubText(String(error.description ?? ''), secrets);
	const data =
		error.context.data === undefined
			? undefined
			: (JSON.parse(scrubText(JSON.stringify(error.context.data), secrets)) as IDataObject);
	const clean =
		error instanceof NodeApiError
			? new NodeApiError(node, { message } as JsonObject, {
					message,
					description,
					httpCode: error.httpCode ?? undefined,
					itemIndex,
				})
			: new NodeOperationError(node, message, { description, itemIndex });
	if (data) clean.context.data = data;
	return clean;
}

/** A password checked against the spec's rule (at least 8 characters); the value is never quoted in the failure. */
export function checkPassword(checks: InputChecks, password: string, whenEmpty: string): string {
	if (password.trim() === '') checks.fail('Password', whenEmpty);
	if (password.length < VN_LIMITS.userPassword.minLength) {
		checks.fail('Password', `must be at least ${VN_LIMITS.userPassword.minLength} characters`);
	}
	return password;
}

/** A write of set_user or update_user: the password goes in the POST body, never into the output or an error. */
export async function sendUserWrite(
	this: IExecuteFunctions,
	itemIndex: number,
	request: { service: 'set_user' | 'update_user'; params: IDataObject; echo: IDataObject },
): Promise<IDataObject> {
	try {
		const answer = await sendWrite.call(this, request.service, request.params, itemIndex);
		const output = writeOutput(answer, request.echo);
		delete output.password;
		return output;
	} catch (error) {
		throw withoutSecret(error, String(request.params.password ?? ''), this.getNode(), itemIndex);
	}
}
