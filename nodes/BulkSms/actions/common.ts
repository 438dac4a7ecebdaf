/**
 * What several operations of the Bulk SMS node share: field definitions, their readers, and the
 * reading of the sender list. Operations take these from here, never from each other.
 */
import type { IDataObject, INodeProperties } from 'n8n-workflow';

import type { InputChecks } from '../../shared/checks';
import { normalizeSmsSender, SMS_SENDER_RULES } from '../rules';

// ---- Credit Path (Credit → Get Balance, and Send's Check Credit First) -------------------------

/** The spec names a `/credit` operation but shows neither its path nor its answer. */
export const DEFAULT_CREDIT_PATH = '/credit';

/** A path on the SMS service's Base URL: never a full URL, so the token only goes to that host. */
const CREDIT_PATH_PATTERN = /^\/?[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*\/?$/;

/** The Credit Path option; `usedBy` says which setting reads it, when it is not the operation itself. */
export function creditPathOption(usedBy?: string): INodeProperties {
	return {
		displayName: 'Credit Path',
		name: 'creditPath',
		type: 'string',
		default: DEFAULT_CREDIT_PATH,
		description: `${usedBy ? `Used by ${usedBy}: path` : 'Path'} of the balance operation on the SMS Base URL. The service contract names a /credit operation without showing its address; change this only if your provider gave you another one.`,
	};
}

export function readCreditPath(check: InputChecks, value: unknown): string {
	const path = String(value ?? '').trim() || DEFAULT_CREDIT_PATH;
	check.pattern(
		'Credit Path',
		path,
		CREDIT_PATH_PATTERN,
		'must be a path on the SMS service, such as /credit (letters, digits, . _ ~ - and /; not a full URL)',
	);
	return path.startsWith('/') ? path : `/${path}`;
}

// ---- Phone sender (Request Phone Verification, Verify Phone Sender) ---------------------------

export function phoneSenderField(description: string, hint?: string): INodeProperties {
	return {
		displayName: 'Phone Number',
		name: 'phoneSender',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. 0501234567',
		description,
		...(hint ? { hint } : {}),
	};
}

/** A phone sender (digits or *XXXX) from a field, or the item's error. */
export function readPhoneSender(check: InputChecks, field: string, value: unknown): string {
	const text = check.required(field, value);
	const sender = normalizeSmsSender(text);
	if (!sender || sender.kind === 'text')
		check.fail(field, `is not valid: ${SMS_SENDER_RULES.phone}`, text);
	return sender.value;
}

// ---- Sender list (Sender → List, and Send's sender picker) ------------------------------------

/** The sender items of a get_sender_list answer (none when it holds no list). */
export function senderList(answer: IDataObject): IDataObject[] {
	return Array.isArray(answer.senders) ? (answer.senders as IDataObject[]) : [];
}
