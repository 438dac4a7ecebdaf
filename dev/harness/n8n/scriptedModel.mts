/**
 * A scripted OpenAI-compatible chat model on 127.0.0.1 (a free port), for n8n's OpenAI Chat Model
 * with its credential's Base URL pointed here. It answers `POST /v1/chat/completions` (plain or
 * streamed) with what the script says (tool calls or a final text) and `GET /v1/models`, and
 * records every request body: the tools (names, descriptions, argument schemas) the model was
 * given, and the tool results it read back.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ChatMessage {
	role: string;
	content?: unknown;
	tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
	tool_call_id?: string;
}

export interface ChatTool {
	type: string;
	function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export interface ChatRequest {
	model?: string;
	messages: ChatMessage[];
	tools?: ChatTool[];
	stream?: boolean;
}

/** What the model answers: tool calls, or its final text. */
export type ScriptedTurn =
	| { toolCalls: Array<{ name: string; arguments: Record<string, unknown> }> }
	| { text: string };

/** Decides the next turn from the request (the conversation so far). */
export type Script = (request: ChatRequest) => ScriptedTurn;

export interface ScriptedModel {
	/** The Base URL for the openAiApi credential (`…/v1`). */
	baseUrl: string;
	/** Every chat request received, in order. */
	requests: ChatRequest[];
	close(): Promise<void>;
}

/** The text of a message, whatever form its content has (string, or content parts). */
export function textOf(message: ChatMessage | undefined): string {
	const content = message?.content;
	if (typeof content === 'string') return content;
	if (Array.isArray(content))
		return content.map((part) => String((part as { text?: unknown }).text ?? '')).join('');
	return '';
}

let calls = 0;

function completion(request: ChatRequest, turn: ScriptedTurn) {
	const message =
		'toolCalls' in turn
			? {
					role: 'assistant',
					content: null,
					tool_calls: turn.toolCalls.map((call) => ({
						id: `call_${++calls}`,
						type: 'function',
						function: { name: call.name, arguments: JSON.stringify(call.arguments) },
					})),
				}
			: { role: 'assistant', content: turn.text };
	return {
		id: `chatcmpl-${++calls}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model: request.model ?? 'scripted',
		choices: [{ index: 0, message, finish_reason: 'toolCalls' in turn ? 'tool_calls' : 'stop' }],
		usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
	};
}

/** The same answer as server-sent events: one chunk with the whole message, then [DONE]. */
function streamed(res: ServerResponse, answer: ReturnType<typeof completion>): void {
	const { message, finish_reason } = answer.choices[0];
	const delta = {
		role: 'assistant',
		content: message.content ?? '',
		...('tool_calls' in message
			? { tool_calls: (message.tool_calls ?? []).map((call, index) => ({ index, ...call })) }
			: {}),
	};
	const chunk = (choice: Record<string, unknown>) =>
		`data: ${JSON.stringify({ ...answer, object: 'chat.completion.chunk', choices: [choice] })}\n\n`;
	res.writeHead(200, { 'content-type': 'text/event-stream' });
	res.write(chunk({ index: 0, delta, finish_reason: null }));
	res.write(chunk({ index: 0, delta: {}, finish_reason }));
	res.end('data: [DONE]\n\n');
}

async function bodyOf(req: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of req) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString('utf8');
}

export async function startScriptedModel(script: Script): Promise<ScriptedModel> {
	const requests: ChatRequest[] = [];
	const server = createServer((req, res) => {
		void (async () => {
			const url = req.url ?? '';
			if (req.method === 'GET' && url.endsWith('/models')) {
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted', object: 'model' }] }));
				return;
			}
			if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
				res.writeHead(404, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: `not scripted: ${req.method} ${url}` } }));
				return;
			}
			const request = JSON.parse(await bodyOf(req)) as ChatRequest;
			requests.push(request);
			let answer;
			try {
				answer = completion(request, script(request));
			} catch (error) {
				res.writeHead(500, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: String(error) } }));
				return;
			}
			if (request.stream) return streamed(res, answer);
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(answer));
		})();
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		close: async () => await new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

/** An n8n OpenAI credential whose Base URL is the scripted model (answers the credential's id). */
export async function scriptedOpenAiCredential(
	n8n: { rest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> },
	model: ScriptedModel,
	name = 'OpenAI account',
): Promise<string> {
	const created = await n8n.rest<{ id: string }>('POST', '/credentials', {
		name,
		type: 'openAiApi',
		data: { apiKey: 'sk-scripted', url: model.baseUrl, header: false },
	});
	return created.id;
}
