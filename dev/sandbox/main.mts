// `npm run sandbox`: starts both emulated services and prints what to paste into the n8n credentials.
import { parseArgs } from 'node:util';
import { FIELD_BEHAVIOURS, startSandbox } from './index.mts';
import type { CallbackStyle, Profile } from './index.mts';

/** `text` broken at spaces into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
	const lines = [''];
	for (const word of text.split(' ')) {
		const line = lines[lines.length - 1];
		if (line !== '' && line.length + 1 + word.length > width) lines.push(word);
		else lines[lines.length - 1] = line === '' ? word : `${line} ${word}`;
	}
	return lines;
}

/** One option of the usage text: the flag, then its help wrapped beside it (100 columns). */
function option(flag: string, help: string): string {
	return `  ${flag.padEnd(26)}${wrap(help, 72).join(`\n${' '.repeat(28)}`)}`;
}

const USAGE = `Usage: npm run sandbox -- [options]
  --host <addr>             listen address (env SANDBOX_HOST, default 127.0.0.1)
  --vn-port <n>             virtual number service port (env SANDBOX_VN_PORT, default 5701)
  --sms-port <n>            SMS service port (env SANDBOX_SMS_PORT, default 5702)
  --callback-style <s>      json | form | query | upper | lower (default json)
  --profile <p>             contract | field (env SANDBOX_PROFILE, default contract): field switches
                            every behaviour the service showed in the field on
${option('--field <b,b,...>', `single field behaviours (added to --profile): ${FIELD_BEHAVIOURS.join(', ')}`)}
  --word <word>             the word in place of "virtualnum" in service and parameter names
  --recording-delay <ms>    recording-delay: how long a recording does not exist (default 5000)
  --refusal-status <n>      refusal-texts: HTTP status of the observed refusals (default 200)
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

function describeProfile(view: { behaviours: string[]; word: string }): string {
	const behaviours = view.behaviours.length > 0 ? view.behaviours.join(', ') : 'contract';
	return view.word === 'virtualnum' ? behaviours : `${behaviours}; word "${view.word}"`;
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
		profile: { type: 'string' },
		field: { type: 'string' },
		word: { type: 'string' },
		'recording-delay': { type: 'string' },
		'refusal-status': { type: 'string' },
		help: { type: 'boolean' },
	},
});

if (values.help) {
	console.log(USAGE);
	process.exit(0);
}

const style = values['callback-style'] ?? 'json';
if (!['json', 'form', 'query', 'upper', 'lower'].includes(style)) {
	console.error(`--callback-style must be json, form, query, upper or lower\n\n${USAGE}`);
	process.exit(2);
}

const time = () => new Date().toISOString().slice(11, 23);
// A bad --profile, --field or --word is refused like a bad flag value (exit 2), before listening.
const sandbox = await startSandbox({
	profile: values.profile as Profile | undefined,
	behaviours: values.field,
	word: values.word,
	recordingDelayMs:
		values['recording-delay'] === undefined
			? undefined
			: number(values['recording-delay'], 'recording delay', 5000),
	refusalStatus:
		values['refusal-status'] === undefined
			? undefined
			: number(values['refusal-status'], 'refusal status', 200),
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
}).catch((error: unknown) => {
	console.error(`${(error as Error).message}\n\n${USAGE}`);
	process.exit(2);
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

Profile: ${describeProfile(sandbox.control.profile())}

Test tokens: expired ${sandbox.tokens.expired}, suspended account ${sandbox.tokens.suspended}

Control API (JSON, no auth) on both servers: ${sandbox.vnUrl}/_sandbox/ and ${sandbox.smsUrl}/_sandbox/
  POST /_sandbox/reset   GET /_sandbox/requests   POST /_sandbox/calls   GET /_sandbox/callbacks
  POST /_sandbox/faults  GET /_sandbox/otp?sender=  POST /_sandbox/flush  POST /_sandbox/profile
  POST /_sandbox/sms/inbound  POST /_sandbox/cdrs  GET /_sandbox/routes  (GET /_sandbox/ lists all)

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
