/**
 * Credential tests, run by n8n's "Test" button through the nodes' `testedBy`. They read the
 * answer with the transports' own interpreters, so the test says exactly what a node would say
 * (each 401 text with its fix, the service's own words on failure).
 */
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	ICredentialsDecrypted,
	INode,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import {
	baseUrlFrom,
	isRedirect,
	redirectFailure,
	type FailureContext,
	type RawAnswer,
} from './transport/http';
import { credentialSecrets, maskKnown } from './masking';
import { UNAUTHORIZED_CODE } from './statusCodes';
import { N8N_API_LABEL, readN8nApiAnswer } from './transport/n8nApi';
import { readSenderAnswer, SMS_LABEL, withSmsIpHint } from './transport/smsApi';
import { readVirtualnumAnswer, VIRTUALNUM_LABEL } from './transport/virtualnumApi';

const TEST_TIMEOUT_MS = 30_000;

const testNode = (type: string): INode => ({
	id: 'credential-test',
	name: 'Credential test',
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
});

/** The test's request; `headers` replaces the bearer header of the services' credentials. */
interface TestRequest {
	url: string;
	qs: Record<string, string>;
	headers?: Record<string, string>;
}

async function fetchForTest(
	context: ICredentialTestFunctions,
	data: ICredentialDataDecryptedObject,
	{ url, qs, headers }: TestRequest,
): Promise<RawAnswer> {
	// CredentialTestContext offers no helper but `request`, and no authentication helper either,
	// so the header the credential's `authenticate` describes is set here (none without a token).
	const token = typeof data.accessToken === 'string' ? data.accessToken.trim() : '';
	const response = (await context.helpers.request({
		method: 'GET',
		uri: url,
		qs,
		headers: headers ?? (token ? { Authorization: `Bearer ${token}` } : {}),
		json: false,
		simple: false,
		resolveWithFullResponse: true,
		// Never to a redirect target: the token would go along (see sendRequest).
		followRedirect: false,
		followAllRedirects: false,
		timeout: TEST_TIMEOUT_MS,
	})) as { statusCode: number; headers: RawAnswer['headers']; body: unknown };
	// A service or a proxy may echo a token: masked before the answer is read or quoted.
	const body =
		typeof response.body === 'string'
			? maskKnown(response.body, credentialSecrets(data))
			: response.body;
	return { statusCode: response.statusCode, headers: response.headers ?? {}, body };
}

/**
 * How a failure of the test reads: one message, never two pieces of advice that contradict. A
 * refusal of the caller (a text of docs/errors.md's table, or HTTP 401) comes with the advice its
 * transport gives it, the same as in a node's error; `unsaid` is what any other failure of a
 * request adds (the SMS service's IP allow-list).
 */
interface TestAdvice {
	unsaid?: (message: string) => string;
}

/** The test's failure message for an error a transport threw. */
function failureMessage(error: unknown, advice: TestAdvice): string {
	const { message, description, httpCode } = error as {
		message: string;
		description?: string | null;
		httpCode?: string | null;
	};
	const text = description ? `${message}. ${description}` : message;
	const refusal = String(httpCode) === String(UNAUTHORIZED_CODE);
	return refusal || !advice.unsaid ? text : advice.unsaid(text);
}

async function runTest(
	context: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
	label: string,
	build: (baseUrl: string) => TestRequest,
	read: (raw: RawAnswer, failure: FailureContext) => unknown,
	failure: Omit<FailureContext, 'serviceLabel'>,
	advice: TestAdvice = {},
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	let baseUrl: string;
	try {
		baseUrl = baseUrlFrom(data.baseUrl, label, failure.node);
	} catch (error) {
		// Nothing was sent: the Base URL is the one cause.
		return { status: 'Error', message: failureMessage(error, {}) };
	}
	try {
		const request = build(baseUrl);
		const { url } = request;
		let raw: RawAnswer;
		try {
			raw = await fetchForTest(context, data, request);
		} catch (error) {
			const code =
				(error as { code?: string; cause?: { code?: string } }).code ??
				(error as { cause?: { code?: string } }).cause?.code;
			const message =
				`Could not reach ${new URL(url).origin}${code ? ` (${code})` : ''}: check ` +
				`the Base URL and that n8n can reach that host.`;
			return { status: 'Error', message: advice.unsaid ? advice.unsaid(message) : message };
		}
		if (isRedirect(raw.statusCode))
			throw redirectFailure({ ...failure, serviceLabel: label }, raw, url);
		read(raw, { ...failure, serviceLabel: label });
		return { status: 'OK', message: 'Connection successful' };
	} catch (error) {
		return { status: 'Error', message: failureMessage(error, advice) };
	}
}

export async function virtualnumApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	return await runTest(
		this,
		credential,
		VIRTUALNUM_LABEL,
		(baseUrl) => ({ url: `${baseUrl}/api/`, qs: { service: 'test', format: 'json' } }),
		(raw, failure) => readVirtualnumAnswer(raw, failure),
		{ node: testNode('n8n-nodes-virtualnum.virtualNumber'), operation: 'test' },
	);
}

export async function virtualnumSmsApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const accountToken = String(credential.data?.accountToken ?? '').trim();
	return await runTest(
		this,
		credential,
		SMS_LABEL,
		(baseUrl) => ({
			url: `${baseUrl}/api/ws.php`,
			qs: { service: 'get_sender_list', ...(accountToken ? { token: accountToken } : {}) },
		}),
		(raw, failure) => readSenderAnswer(raw, failure),
		{ node: testNode('n8n-nodes-virtualnum.bulkSms'), operation: 'get_sender_list' },
		// An address filter may refuse in any form (a 403, a page, a dropped connection).
		{ unsaid: withSmsIpHint },
	);
}

/** n8n's public API: lists one Data Table with the key, as the table of waiting runs is found. */
export async function virtualnumN8nApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const apiKey = String(credential.data?.apiKey ?? '').trim();
	return await runTest(
		this,
		credential,
		N8N_API_LABEL,
		(baseUrl) => ({
			url: `${baseUrl.replace(/\/api\/v1$/i, '')}/api/v1/data-tables`,
			qs: { limit: '1' },
			headers: { 'X-N8N-API-KEY': apiKey },
		}),
		(raw, failure) => readN8nApiAnswer(raw, failure),
		{ node: testNode('n8n-nodes-virtualnum.bulkSms'), operation: 'list Data Tables' },
	);
}
