import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { InputChecks } from '../../../shared/checks';
import { smsCreditRequest } from '../../../shared/transport/smsApi';
import type { ItemOperation } from '../../../shared/router';

/** The spec names a `/credit` operation but shows neither its path nor its answer. */
export const DEFAULT_CREDIT_PATH = '/credit';

/** A path on the SMS service's Base URL: never a full URL, so the token only goes to that host. */
const CREDIT_PATH_PATTERN = /^\/?[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*\/?$/;

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

export const creditPathDescription =
	'Path of the balance operation on the SMS Base URL. The service contract names a /credit operation without showing its address; change this only if your provider gave you another one.';

export const description: INodeProperties[] = [
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add option',
		default: {},
		displayOptions: { show: { resource: ['credit'], operation: ['getBalance'] } },
		options: [
			{
				displayName: 'Credit Path',
				name: 'creditPath',
				type: 'string',
				default: DEFAULT_CREDIT_PATH,
				description: creditPathDescription,
			},
		],
	},
];

export const execute: ItemOperation = async function (this: IExecuteFunctions, itemIndex: number) {
	const check = new InputChecks(this.getNode(), itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as { creditPath?: string };
	const path = readCreditPath(check, options.creditPath);
	// The answer is returned as the service gave it (its shape is not in the spec).
	const answer = await smsCreditRequest.call(this, path, itemIndex);
	return this.helpers.returnJsonArray(answer);
};
