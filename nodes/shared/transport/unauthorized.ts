/** The 401 plain-text answers, shared by both services, each turned into what to do. */
import { UNAUTHORIZED_TEXTS } from '../statusCodes';
import { excerpt, type DecodedAnswer } from './answer';
import { serviceError, type FailureContext } from './http';

export function unauthorizedFailure(context: FailureContext, decoded: DecodedAnswer) {
	const text = 'text' in decoded ? decoded.text.trim() : '';
	const known = UNAUTHORIZED_TEXTS.find(({ pattern }) => pattern.test(text));
	if (known) {
		return serviceError(
			context,
			`${context.serviceLabel} refused ${context.operation}: ${known.meaning}`,
			`${known.hint}. The service said: "${excerpt(text, 120)}".`,
			401,
		);
	}
	return serviceError(
		context,
		`${context.serviceLabel} refused ${context.operation}: not authorized (HTTP 401)`,
		`${text ? `The service said: "${excerpt(text, 120)}". ` : ''}Check the credential's access token and that the IP of your n8n server is in the account's allowed IP list.`,
		401,
	);
}
