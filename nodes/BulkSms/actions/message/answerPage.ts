/**
 * The answer page of Send and Wait for Response: the node's webhook on n8n's signed resume URL.
 * GET shows the page (never an answer: SMS apps open links by themselves to preview them); a POST
 * of its form records the answer and resumes the execution.
 *
 * n8n checks the signature before calling this (WaitingWebhooks: the path and query, signed with the
 * instance's secret), so the recipient number in the query is the one the SMS went to. Once the
 * execution has resumed, n8n answers the link itself and never calls this again: its "No action
 * required" page when the execution has ended, HTTP 409 while it still runs.
 */
import type {
	IDataObject,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

/** The query parameter carrying the recipient (part of the signed URL). */
export const RECIPIENT_QUERY = 'to';
const ANSWER_PAGE_DEFAULTS = { title: 'Your answer' } as const;
const MAX_TEXT = 2000;

/** What the editor shows on the node while its execution waits (n8n's own nodes show the same). */
export const WAITING_TOOLTIP =
	'={{ $parameter["operation"] === "sendAndWait" ? "Execution will continue after the recipient answers" : "" }}';

/** As n8n's send-and-wait nodes declare them: the resume URL's suffix is the node id. */
export const answerWebhooks: IWebhookDescription[] = ['GET', 'POST'].map((httpMethod) => ({
	name: 'default',
	httpMethod,
	responseMode: 'onReceived',
	responseData: '',
	path: '={{ $nodeId }}',
	restartWebhook: true,
	isFullPath: true,
}));

interface PageSettings {
	title: string;
	message: string;
	responseType: string;
	approveLabel: string;
	declineLabel?: string;
}

function escapeHtml(text: string): string {
	return text.replace(
		/[&<>"']/g,
		(c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
	);
}

function parameter(context: IWebhookFunctions, name: string, fallback: unknown): unknown {
	try {
		return context.getNodeParameter(name, fallback);
	} catch {
		// An expression on the input item cannot be resolved here (no item): the page goes without.
		return fallback;
	}
}

function settings(context: IWebhookFunctions): PageSettings {
	const values = parameter(context, 'approvalOptions.values', {}) as IDataObject;
	const options = parameter(context, 'options', {}) as IDataObject;
	const message = parameter(context, 'message', '');
	return {
		title: String(options.pageTitle || ANSWER_PAGE_DEFAULTS.title),
		message: typeof message === 'string' ? message : '',
		responseType: String(parameter(context, 'responseType', 'approval')),
		approveLabel: String(values.approveLabel || 'Approve'),
		declineLabel:
			(values.approvalType ?? 'double') === 'double'
				? String(values.disapproveLabel || 'Decline')
				: undefined,
	};
}

function page(title: string, body: string): string {
	return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#333}
button{font-size:1.1rem;padding:.7rem 1.4rem;margin:.4rem .4rem 0 0;border-radius:6px;border:1px solid #888}
button.primary{background:#2b7a3d;color:#fff;border-color:#2b7a3d}textarea{width:100%;font-size:1rem}
p.message{white-space:pre-wrap}p.error{color:#b00020}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function questionPage(settings: PageSettings, error = ''): string {
	const message = settings.message ? `<p class="message">${escapeHtml(settings.message)}</p>` : '';
	const problem = error ? `<p class="error">${escapeHtml(error)}</p>` : '';
	const decline = settings.declineLabel
		? `<button type="submit" name="answer" value="decline">${escapeHtml(settings.declineLabel)}</button>`
		: '';
	const approve =
		'<button class="primary" type="submit" name="answer" value="approve">' +
		`${escapeHtml(settings.approveLabel)}</button>`;
	const form =
		settings.responseType === 'freeText'
			? `<form method="post"><textarea name="text" rows="5" maxlength="${MAX_TEXT}" required></textarea>
<button class="primary" type="submit">Send</button></form>`
			: `<form method="post">${approve}${decline}</form>`;
	return page(settings.title, `${message}${problem}${form}`);
}

function recordedPage(answer: string): string {
	return page(
		'Answer recorded',
		`<p>Your answer was recorded: <strong>${escapeHtml(answer)}</strong>.</p>
<p>You can close this page. The link is now used: opening it again shows that no action is required.</p>`,
	);
}

function sendPage(context: IWebhookFunctions, status: number, html: string): IWebhookResponseData {
	const res = context.getResponseObject();
	res.status(status);
	res.setHeader('Content-Type', 'text/html; charset=utf-8');
	res.setHeader('Cache-Control', 'no-store');
	res.send(html);
	return { noWebhookResponse: true };
}

/** The answer of a POST, or the reason it is none. */
function readAnswer(
	settings: PageSettings,
	body: IDataObject,
): { data: IDataObject; shown: string } | { error: string } {
	if (settings.responseType === 'freeText') {
		const text = typeof body.text === 'string' ? body.text.trim() : '';
		if (text === '') return { error: 'Write an answer before sending.' };
		if (text.length > MAX_TEXT)
			return { error: `The answer is ${text.length} characters; at most ${MAX_TEXT} fit.` };
		return { data: { text }, shown: text };
	}
	if (body.answer === 'approve') return { data: { approved: true }, shown: settings.approveLabel };
	if (body.answer === 'decline' && settings.declineLabel)
		return { data: { approved: false }, shown: settings.declineLabel };
	return { error: 'Choose one of the buttons.' };
}

export async function pageWebhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = this.getRequestObject();
	const page = settings(this);
	if (req.method !== 'POST') return sendPage(this, 200, questionPage(page));
	const body = this.getBodyData();
	const answer = readAnswer(page, typeof body === 'object' && body !== null ? body : {});
	if ('error' in answer) return sendPage(this, 400, questionPage(page, answer.error));
	const query = req.query as IDataObject;
	const recipient = typeof query[RECIPIENT_QUERY] === 'string' ? query[RECIPIENT_QUERY] : '';
	return {
		webhookResponse: recordedPage(answer.shown),
		workflowData: [
			[
				{
					json: {
						data: { ...answer.data, respondedBy: recipient, respondedAt: new Date().toISOString() },
					},
				},
			],
		],
	};
}
