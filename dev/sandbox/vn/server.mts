// The virtual number service: `${vnUrl}/api/`, operation in `service`, GET or POST, answers in XML
// unless format=json. Order: parse, record, faults, authenticate, dispatch, render.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from '../auth.mts';
import type { Core } from '../core.mts';
import {
	applyPreFault,
	distortLength,
	distortStatement,
	repeatRows,
	dripAnswer,
	echoedTokens,
	lengthenText,
	truncate,
} from '../faults.mts';
import { parseRequest, send, sendText, toXml } from '../http.mts';
import type { ParsedRequest } from '../http.mts';
import { contractParams, contractService, observedRefusal, renameKeys } from '../field.mts';
import { delay } from '../util.mts';
import { blacklistOps } from './blacklist.mts';
import { callOps, openClick2CallLink } from './calls.mts';
import { cdrOps } from './cdr.mts';
import { Params, ServiceError } from './common.mts';
import type { OpHandler, OpResult, RawAnswer } from './common.mts';
import { conversionOps } from './conversions.mts';
import { numberOps } from './numbers.mts';
import { promptOps } from './prompts.mts';
import { tagOps } from './tags.mts';
import { userOps } from './users.mts';

export const VN_OPERATIONS: Record<string, OpHandler> = {
	test: () => ({ description: 'OK' }),
	...numberOps,
	...callOps,
	...cdrOps,
	...conversionOps,
	...userOps,
	...tagOps,
	...blacklistOps,
	...promptOps,
};

interface Answer {
	service: string;
	status: Record<string, unknown> & { code: number; description: string };
	result?: unknown;
}

function isApiPath(path: string): boolean {
	return path === '/api' || path === '/api/' || path === '/api/index.php';
}

async function runOperation(
	core: Core,
	req: ParsedRequest,
	service: string,
	userId: number | undefined,
	format: 'json' | 'xml',
): Promise<Answer | RawAnswer> {
	const word = core.field.word;
	const name = contractService(service, word);
	const handler = name === undefined ? undefined : VN_OPERATIONS[name];
	if (!handler || name === undefined)
		return { service, status: { code: 999, description: `Unknown service "${service}"` } };
	try {
		const outcome: OpResult = await handler({
			core,
			state: core.state,
			params: new Params(contractParams(req.params, word)),
			files: req.files,
			format,
			userId,
			service: name,
		});
		if ('raw' in outcome) return outcome.raw;
		const answer: Answer = {
			service,
			status: {
				code: 200,
				description: outcome.description ?? 'Success',
				...(outcome.status ?? {}),
			},
		};
		if (outcome.result !== undefined) answer.result = renameKeys(outcome.result, word);
		return answer;
	} catch (error) {
		if (error instanceof ServiceError)
			return { service, status: { code: error.code, description: error.message } };
		core.log(`vn ${service} internal error: ${(error as Error).stack ?? error}`);
		return { service, status: { code: 999, description: 'Internal error' } };
	}
}

function writeRaw(res: ServerResponse, raw: RawAnswer, limit?: number): void {
	const length = limit ?? raw.length;
	const headers: Record<string, string | number> = {
		'content-type': raw.contentType,
		'content-length': length,
	};
	if (raw.filename) headers['content-disposition'] = `attachment; filename="${raw.filename}"`;
	res.writeHead(200, headers);
	let left = length;
	const chunks = raw.chunks()[Symbol.iterator]();
	// Writes with back-pressure so that a 50 MB recording is never materialised.
	const pump = () => {
		while (left > 0 && !res.destroyed) {
			const next = chunks.next();
			if (next.done) break;
			const piece = next.value.length > left ? next.value.subarray(0, left) : next.value;
			left -= piece.length;
			if (!res.write(piece)) {
				res.once('drain', pump);
				return;
			}
		}
		res.end();
	};
	pump();
}

export async function handleVn(
	core: Core,
	incoming: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const started = Date.now();
	const req = await parseRequest(incoming);
	if (req.path === '/click2call' || req.path === '/click2call/') {
		const opened = openClick2CallLink(req.query);
		sendText(res, opened.status, opened.text);
		return;
	}
	if (!isApiPath(req.path)) {
		sendText(res, 404, 'Not Found: the service answers under /api/');
		return;
	}
	const service = req.params.service?.trim() ?? '';
	core.record('vn', req, service);
	const log = (status: number, code?: number) =>
		core.log(
			`vn  ${service || '(no service)'} ${status}${code !== undefined && code !== 200 ? ` code=${code}` : ''} ${Date.now() - started}ms`,
		);
	const fault = core.faults.take('vn', service, req.params.call_uuid?.trim());
	if (applyPreFault(res, fault, req.clientIp, core.redirectUrl, req)) {
		log(res.statusCode, undefined);
		return;
	}
	if (fault?.kind === 'slow') await delay(fault.delayMs, core.signal);
	const auth = authenticate(core.state, 'vn', req, true);
	if (!auth.ok) {
		const observed = core.is('refusal-texts');
		const status = observed ? core.field.refusalStatus : 401;
		sendText(res, status, observed ? observedRefusal(auth.text, req.clientIp) : auth.text);
		log(status);
		return;
	}
	const format: 'json' | 'xml' =
		(req.params.format ?? '').trim().toLowerCase() === 'json' ? 'json' : 'xml';
	const answer = await answerOf(core, req, service, fault, auth.token.userId, format);
	if ('chunks' in answer) {
		if (fault?.kind === 'drip') dripRaw(core, res, answer, fault.intervalMs);
		else
			writeRaw(
				res,
				answer,
				fault?.kind === 'truncatedJson' ? Math.floor(answer.length / 2) : undefined,
			);
		log(200);
		return;
	}
	// lateAnswer: the state was read on arrival; what happens meanwhile is not in the answer.
	if (fault?.kind === 'lateAnswer') await delay(fault.delayMs, core.signal);
	writeAnswer(core, res, answer, fault, format);
	log(200, answer.status.code);
}

type TakenFault = ReturnType<Core['faults']['take']>;

/** The operation's answer, or the fault's status in its place. */
async function answerOf(
	core: Core,
	req: ParsedRequest,
	service: string,
	fault: TakenFault,
	userId: number | undefined,
	format: 'json' | 'xml',
): Promise<Answer | RawAnswer> {
	if (service === '')
		return { service: '', status: { code: 998, description: 'The service parameter is missing' } };
	if (fault?.kind === 'serviceError')
		return {
			service,
			status: { code: fault.code, description: fault.description ?? `Service error ${fault.code}` },
		};
	if (fault?.kind === 'echoToken' && fault.where === 'status')
		return { service, status: { code: 999, description: `Invalid Token: ${echoedTokens(req)}` } };
	// ignorePage: the service answers the first page whatever page was asked for.
	if (fault?.kind === 'ignorePage') delete req.params.page;
	if (service === 'cdr_query') distortStatement(req.params, fault);
	return runOperation(core, req, service, userId, format);
}

/** The answer in the format asked for, or distorted by the fault taken (length, text, XML, cut, drip). */
function writeAnswer(
	core: Core,
	res: ServerResponse,
	answer: Answer,
	fault: TakenFault,
	asked: 'json' | 'xml',
): void {
	if (fault?.kind === 'wrongLength' && Array.isArray(answer.result))
		answer.result = distortLength(answer.result, fault.delta);
	if (fault?.kind === 'longText') lengthenText(answer, fault);
	if (fault?.kind === 'repeatRows' && Array.isArray(answer.result))
		answer.result = repeatRows(answer.result, fault.times);
	const format = fault?.kind === 'xml' ? 'xml' : asked;
	const [contentType, text] =
		fault?.kind === 'truncatedJson'
			? ['application/json; charset=utf-8', truncate(JSON.stringify(answer))]
			: format === 'json'
				? ['application/json; charset=utf-8', JSON.stringify(answer)]
				: ['application/xml; charset=utf-8', toXml('response', answer)];
	if (fault?.kind === 'drip')
		dripAnswer(
			res,
			200,
			{ 'content-type': contentType },
			Buffer.from(text),
			fault.intervalMs,
			core.signal,
		);
	else send(res, 200, contentType, text);
}

/** drip on a file: its bytes (a recording is small unless configured otherwise), one at a time. */
function dripRaw(core: Core, res: ServerResponse, raw: RawAnswer, intervalMs: number): void {
	const chunks: Buffer[] = [];
	let size = 0;
	for (const chunk of raw.chunks()) {
		chunks.push(chunk);
		size += chunk.length;
		if (size >= raw.length) break;
	}
	const headers: Record<string, string> = { 'content-type': raw.contentType };
	if (raw.filename) headers['content-disposition'] = `attachment; filename="${raw.filename}"`;
	const body = Buffer.concat(chunks).subarray(0, raw.length);
	dripAnswer(res, 200, headers, body, intervalMs, core.signal);
}
