// The two authentication layers of the spec: client IP (virtual number service only), then the
// Bearer token. Tokens are bound to a service, a status and (for VN tokens) a user.
import type { ParsedRequest } from './http.mts';
import type { State, TokenInfo } from './state.mts';

export type AuthResult = { ok: true; token: TokenInfo } | { ok: false; text: string };

export function bearerToken(headers: Record<string, string>): string | undefined {
	const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
	return m?.[1];
}

/** Who a VN request without a bearer header acts as, when the account has no API access token: the administrator. */
const ACCOUNT_WITHOUT_TOKEN: TokenInfo = { service: 'vn', status: 'valid', userId: 1 };

/**
 * Order of checks: IP, missing token, unknown token, expired, other service, suspended account.
 * The VN service requires the bearer header only "when an API access token is configured for the
 * account" (spec): with `apiToken` off, a request without one passes on the IP check alone, and
 * a request that sends one is still checked.
 */
export function authenticate(
	state: State,
	service: 'vn' | 'sms',
	req: ParsedRequest,
	checkIp: boolean,
): AuthResult {
	if (checkIp && !state.account.ipAllowed) {
		return { ok: false, text: `Unauthorized - IP Address:'${req.clientIp}' is not allowed` };
	}
	const token = bearerToken(req.headers);
	if (!token && service === 'vn' && !state.account.apiToken)
		return { ok: true, token: ACCOUNT_WITHOUT_TOKEN };
	if (!token) return { ok: false, text: 'Unauthorized - Token Required' };
	const info = state.tokens.get(token);
	if (!info) return { ok: false, text: 'Unauthorized - Invalid Token' };
	if (info.status === 'expired') return { ok: false, text: 'Unauthorized - Token Expired' };
	if (info.service !== 'any' && info.service !== service)
		return { ok: false, text: 'Unauthorized - Invalid Token' };
	if (info.status === 'suspended') return { ok: false, text: 'Unauthorized - Account Suspended' };
	return { ok: true, token: info };
}
