/**
 * Transport of n8n's own public REST API (`{n8n address}/api/v1/…`, header `X-N8N-API-KEY`), the
 * only way n8n 2.x lets a community node read and write a Data Table (its in-process helper serves
 * n8n's own Data table nodes alone). Used for the table of runs waiting for an SMS reply
 * (nodes/shared/replyWaits.ts). Each refusal n8n answers becomes an error naming its fix.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestMethods,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	baseUrlFrom,
	decodeAnswer,
	excerpt,
	isDataObject,
	sendRequest,
	serviceError,
	type FailureContext,
	type RawAnswer,
	type RequestContext,
} from './http';

const N8N_API_CREDENTIAL = 'virtualnumN8nApi';
export const N8N_API_LABEL = 'n8n API';

/** The scopes an API key needs for the table of waiting runs (also in the credential's notice). */
const N8N_API_SCOPES = [
	'dataTable:list',
	'dataTable:create',
	'dataTable:read',
	'dataTableRow:create',
	'dataTableRow:read',
	'dataTableRow:delete',
];

/** A request's answer that is not an error: its status and decoded JSON (undefined when empty). */
interface N8nApiAnswer {
	statusCode: number;
	value: unknown;
}

interface N8nApiRequest {
	method: IHttpRequestMethods;
	/** The path after `/api/v1`, e.g. `/data-tables`. */
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	/** What the request does, in the user's words, for errors ("find the table of waiting runs"). */
	what: string;
	/** Statuses the caller reads itself (a 404 of a deleted table, a 409 of a name taken). */
	accept?: number[];
	/** The request changes something: a lost answer must not invite a blind retry. */
	sideEffect?: boolean;
}

/** The credential's address and the credential as read, for the requests of one run or callback. */
export interface N8nApi {
	baseUrl: string;
	credentials: ICredentialDataDecryptedObject;
}

export async function n8nApiOf(this: RequestContext): Promise<N8nApi> {
	const credentials = await this.getCredentials(N8N_API_CREDENTIAL);
	const baseUrl = baseUrlFrom(credentials.baseUrl, N8N_API_LABEL, this.getNode()).replace(
		/\/api\/v1$/i,
		'',
	);
	return { baseUrl, credentials };
}

/**
 * n8n answers 503 "Database is not ready!" to every request, before routing it, while its database
 * check fails, which a busy SQLite does for moments (seen with 100 replies at once in n8n 2.40.7):
 * nothing was done, so the request is sent again after these waits (about 15 s in all).
 */
const NOT_READY_RETRIES_MS = [250, 500, 1000, 2000, 4000, 8000];

/** One request to n8n's public API; any status but 2xx and `accept` becomes an error naming the fix. */
export async function n8nApiRequest(
	this: RequestContext,
	api: N8nApi,
	request: N8nApiRequest,
): Promise<N8nApiAnswer> {
	const failure: FailureContext = {
		node: this.getNode(),
		serviceLabel: N8N_API_LABEL,
		operation: request.what,
		sideEffect: request.sideEffect,
	};
	const options = {
		method: request.method,
		url: `${api.baseUrl}/api/v1${request.path}`,
		qs: request.qs,
		body: request.body,
		json: true,
		timeout: 30_000,
	};
	let raw = await sendRequest.call(this, N8N_API_CREDENTIAL, options, failure, api.credentials);
	for (const waitMs of NOT_READY_RETRIES_MS) {
		if (raw.statusCode !== 503) break;
		await sleep(waitMs);
		raw = await sendRequest.call(this, N8N_API_CREDENTIAL, options, failure, api.credentials);
	}
	return readN8nApiAnswer(raw, failure, request.accept);
}

/** A 2xx (or accepted) answer's JSON; every other answer as the error the user can act on. */
export function readN8nApiAnswer(
	raw: RawAnswer,
	failure: FailureContext,
	accept: number[] = [],
): N8nApiAnswer {
	const decoded = decodeAnswer(raw.body);
	const value = decoded.kind === 'json' ? decoded.value : undefined;
	const ok = raw.statusCode >= 200 && raw.statusCode < 300;
	// Another address (n8n's editor, a proxy's page) answers 200 with HTML: not the API's answer.
	if (ok && decoded.kind !== 'json')
		throw serviceError(
			failure,
			`n8n's API did not answer ${failure.operation}: the Base URL answered with ` +
				(decoded.kind === 'html' ? 'a web page' : 'no JSON'),
			"Check the n8n API credential's Base URL: the address of n8n itself, without /api/v1.",
			raw.statusCode,
		);
	if (ok || accept.includes(raw.statusCode)) return { statusCode: raw.statusCode, value };
	const said =
		isDataObject(value) && typeof value.message === 'string'
			? value.message
			: 'text' in decoded
				? excerpt(decoded.text, 160)
				: '';
	const [message, fix] = refusal(raw.statusCode, said);
	throw serviceError(
		failure,
		`n8n's API refused to ${failure.operation}: ${message} (HTTP ${raw.statusCode})`,
		`${said ? `n8n said: "${said}". ` : ''}${fix}`,
		raw.statusCode,
	);
}

function refusal(status: number, said: string): [string, string] {
	if (status === 401)
		return [
			'the API key is not valid',
			'Check the API Key of the n8n API credential (an expired or deleted key is refused).',
		];
	if (status === 403)
		return [
			'the API key lacks a scope',
			`Give the key the scopes ${N8N_API_SCOPES.join(', ')} (Settings → n8n API).`,
		];
	if (status === 404 && !/data ?table/i.test(said))
		return [
			'no public API at this address',
			"Check the n8n API credential's Base URL (the address of n8n itself, without /api/v1), and that " +
				"n8n's public API is on (N8N_PUBLIC_API_DISABLED not set).",
		];
	return ['n8n could not do it', 'Try again; if it persists, check the n8n log.'];
}
