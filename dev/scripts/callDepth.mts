// `node --import tsx dev/scripts/callDepth.mts` (run by `architecture.mjs --measure`, after
// `npm run build`): the call depth of the built nodes per path, measured, not read off the code.
// Bulk SMS → Send runs on the sandbox through n8n's engine; the Virtual Number Trigger is activated
// and deactivated on every number of the account. Each request through n8n's HTTP helper
// (`httpRequestWithAuthentication`, which asks the credentials helper to authenticate it) takes a
// stack trace there; its frames in the package's dist/ are the path from the node's entry to n8n's
// helper. V8 links the frames of async functions through `await` (not through `.then` callbacks),
// so a path is at least this deep.
// Prints JSON: { "<path>": { depth, frames } }, the deepest stack of each path.
import { ExecuteContext, HookContext } from 'n8n-core';

import { runWorkflow } from '../harness/engine.mts';
import { TriggerHost } from '../harness/trigger.mts';
import { startSandbox } from '../sandbox/index.mts';

Error.stackTraceLimit = Infinity;

const deepest: Record<string, string[]> = {};
let path = '';

const ROOT = new URL('../..', import.meta.url).pathname;
/** A frame of the package: in its nodes/ or credentials/ (as built, or its source through the source map). */
const OURS = new RegExp(
	`\\(${ROOT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(dist/)?(nodes|credentials)/`,
);

/** The package's frames of the current stack, outermost first (`execute → … → attempt`). */
function packageFrames(): string[] {
	const lines = (new Error().stack ?? '').split('\n').slice(1);
	return lines
		.filter((line) => OURS.test(line))
		.map((line) => {
			const name = /at (?:async )?(?:new )?([^\s(]+) \(/.exec(line.trim())?.[1] ?? '<anonymous>';
			// `ExecuteContext.attempt` is the function `attempt` called on n8n's context.
			return name.split('.').pop()!;
		})
		.reverse();
}

// Each context's helpers: the call into n8n's helper records the stack of the caller.
for (const Context of [ExecuteContext, HookContext]) {
	Object.defineProperty(Context.prototype, 'helpers', {
		configurable: true,
		set(helpers: { httpRequestWithAuthentication: (...args: unknown[]) => unknown }) {
			const helper = helpers.httpRequestWithAuthentication;
			helpers.httpRequestWithAuthentication = function (this: unknown, ...args: unknown[]) {
				const frames = path ? packageFrames() : [];
				if (path && frames.length > (deepest[path]?.length ?? 0)) deepest[path] = frames;
				return helper.apply(this, args);
			};
			Object.defineProperty(this, 'helpers', { value: helpers, writable: true, enumerable: true });
		},
	});
}

const sandbox = await startSandbox();
try {
	path = 'Bulk SMS → Send';
	const send = await runWorkflow({
		nodes: [
			{
				name: 'Send',
				type: 'bulkSms',
				parameters: {
					resource: 'message',
					operation: 'send',
					sender: { __rl: true, mode: 'id', value: 'VirtualNum' },
					message: 'Depth probe',
					to: '={{ $json.phone }}',
				},
			},
		],
		input: [{ json: { phone: '0501234567' } }, { json: { phone: '0527654321' } }],
		credentials: {
			virtualnumSmsApi: { baseUrl: sandbox.smsUrl, accessToken: sandbox.tokens.sms },
		},
	});
	if (send.error) throw new Error(`Send failed: ${send.error.message}`);

	const host = await TriggerHost.start();
	try {
		const trigger = host.add({
			parameters: { events: ['callEnded'], numbers: 'all', options: {} },
			credentials: { virtualnumApi: { baseUrl: sandbox.vnUrl, accessToken: sandbox.tokens.vn } },
		});
		path = 'Trigger activation';
		await trigger.activate();
		path = 'Trigger deactivation';
		await trigger.deactivate();
		path = '';
	} finally {
		await host.close();
	}
} finally {
	path = '';
	await sandbox.close();
}

const report = Object.fromEntries(
	Object.entries(deepest).map(([name, frames]) => [name, { depth: frames.length, frames }]),
);
console.log(JSON.stringify(report));
