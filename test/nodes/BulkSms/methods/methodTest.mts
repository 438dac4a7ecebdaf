/** Shared by the tests of the Bulk SMS editor methods: a method called as the editor calls it, on the Send operation. */
import { callNodeMethod } from '../../../../dev/harness/methods.mts';
import { sandboxPerFile, smsCredential } from '../../../../dev/harness/nodeTest.mts';

export function callMethod<T>(
	kind: 'listSearch' | 'loadOptions',
	method: string,
	credentials: Record<string, string>,
	args: unknown[] = [],
	timezone = 'UTC',
): Promise<T> {
	return callNodeMethod<T>({
		nodeType: 'bulkSms',
		kind,
		method,
		credentials: { virtualnumSmsApi: credentials },
		args,
		parameters: { resource: 'message', operation: 'send' },
		timezone,
	});
}

/** A sandbox for the tests of the file, and the SMS credential on it. */
export function methodTest() {
	const sandbox = sandboxPerFile();
	return { sandbox, creds: () => smsCredential(sandbox) as Record<string, string> };
}
