// `npm run sandbox`: starts both emulated services and prints what to paste into the n8n credentials.
import { parseArgs } from 'node:util';
import { startSandbox } from './index.mts';
import type { CallbackStyle } from './index.mts';

const USAGE = `Usage: npm run sandbox -- [options]
  --host <addr>             listen address (env SANDBOX_HOST, default 127.0.0.1)
  --vn-port <n>             virtual number service port (env SANDBOX_VN_PORT, default 5701)
  --sms-port <n>            SMS service port (env SANDBOX_SMS_PORT, default 5702)
  --callback-style <s>      json | form | query | upper (default json)
  --callback-delay <ms>     delay before SMS delivery callbacks (default 50)
  --seed-numbers <n>        active virtual numbers to seed (default 5)
  --seed-cdrs <n>           call records to seed (default 20)
  --recording-bytes <n>     size of each call recording (default 65536)
  --help`;

function number(value: string | undefined, name: string, fallback: number): number {
	if (value === undefined || value === '') return fallback;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 0) {
		console.error(`${name} must be a non-negative integer, got "${value}"`);
		process.exit(2);
	}
	return n;
}

const { values } = parseArgs({
	options: {
		host: { type: 'string' },
		'vn-port': { type: 'string' },
		'sms-port': { type: 'string' },
		'callback-style': { type: 'string' },
		'callback-delay': { type: 'string' },
		'seed-numbers': { type: 'string' },
		'seed-cdrs': { type: 'string' },
		'recording-bytes': { type: 'string' },
		help: { type: 'boolean' },
	},
});

if (values.help) {
	console.log(USAGE);
	process.exit(0);
}

const style = values['callback-style'] ?? 'json';
if (!['json', 'form', 'query', 'upper'].includes(style)) {
	console.error(`--callback-style must be json, form, query or upper\n\n${USAGE}`);
	process.exit(2);
}

const time = () => new Date().toISOString().slice(11, 23);
const sandbox = await startSandbox({
	host: values.host ?? process.env.SANDBOX_HOST ?? '127.0.0.1',
	vnPort: number(values['vn-port'] ?? process.env.SANDBOX_VN_PORT, 'vn port', 5701),
	smsPort: number(values['sms-port'] ?? process.env.SANDBOX_SMS_PORT, 'sms port', 5702),
	callbackStyle: style as CallbackStyle,
	callbackDelayMs: number(values['callback-delay'], 'callback delay', 50),
	seed: {
		numbers: number(values['seed-numbers'], 'seed numbers', 5),
		cdrs: number(values['seed-cdrs'], 'seed cdrs', 20),
		recordingBytes: number(values['recording-bytes'], 'recording bytes', 64 * 1024),
	},
	// Request lines carry service, operation and status only: never a token.
	log: (line) => console.log(`${time()} ${line}`),
});

console.log(`
Virtual number sandbox is running.

Credential "Virtual Number API"
  Base URL       ${sandbox.vnUrl}
  Access Token   ${sandbox.tokens.vn}

Credential "Virtual Number SMS API"
  Base URL       ${sandbox.smsUrl}
  Access Token   ${sandbox.tokens.sms}
  Account token  ${sandbox.tokens.smsAccount}   (the optional "token" parameter of sender operations)

Test tokens: expired ${sandbox.tokens.expired}, suspended account ${sandbox.tokens.suspended}

Control API (JSON, no auth) on both servers: ${sandbox.vnUrl}/_sandbox/ and ${sandbox.smsUrl}/_sandbox/
  POST /_sandbox/reset   GET /_sandbox/requests   POST /_sandbox/calls   GET /_sandbox/callbacks
  POST /_sandbox/faults  GET /_sandbox/otp?sender=  POST /_sandbox/flush  (GET /_sandbox/ lists all)

Press Ctrl+C to stop.
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping the sandbox...`);
		sandbox.close().then(
			() => process.exit(0),
			(error: unknown) => {
				console.error(error);
				process.exit(1);
			},
		);
	});
}
