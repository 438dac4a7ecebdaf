/**
 * The servers an e2e run starts (Postgres, Redis, n8n processes), each stopped by its process id:
 * on a normal stop, and on failure, Ctrl-C, SIGTERM (CI's timeout) or an uncaught error, also with
 * the processes they started themselves (n8n's task runners, Postgres's backends). Each runs in its
 * own process group, so signals meant for the run reach only the run, which then stops them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';

const MAX_LINES = 20_000;

export interface Tracked {
	name: string;
	pid: number;
	/** The last lines of its output (stdout and stderr). */
	logs: string[];
	exited: Promise<number | null>;
	alive(): boolean;
	/** Sends the signal, waits up to `graceMs`, then SIGKILL; its own children are killed too. */
	stop(signal?: NodeJS.Signals, graceMs?: number): Promise<void>;
}

const running = new Map<number, Tracked>();

/** The process ids below `pid` (Linux /proc), children first. */
export function descendants(pid: number): number[] {
	const found: number[] = [];
	const tasks = `/proc/${pid}/task`;
	if (!existsSync(tasks)) return found;
	for (const task of readdirSync(tasks)) {
		let children: number[] = [];
		try {
			children = readFileSync(`${tasks}/${task}/children`, 'utf8')
				.split(/\s+/)
				.filter(Boolean)
				.map(Number);
		} catch {
			continue; // the task ended meanwhile
		}
		for (const child of children) found.push(child, ...descendants(child));
	}
	return found;
}

function killQuietly(pid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(pid, signal);
	} catch {
		// already gone
	}
}

export function spawnTracked(
	name: string,
	command: string,
	args: string[],
	options: {
		env?: NodeJS.ProcessEnv;
		cwd?: string;
		onLine?: (line: string) => void;
		logFile?: string;
	} = {},
): Tracked {
	// A process group of its own: a Ctrl-C or a timeout's signal to the run's group reaches the run,
	// which stops its servers in order (n8n before the database it writes to), not all at once.
	const child: ChildProcess = spawn(command, args, {
		env: options.env,
		cwd: options.cwd,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	if (child.pid === undefined) throw new Error(`${name}: ${command} could not be started`);
	const pid = child.pid;
	const logs: string[] = [];
	let done = false;
	const exited = new Promise<number | null>((resolve) => {
		child.once('exit', (code, signal) => {
			done = true;
			running.delete(pid);
			resolve(code ?? (signal ? 128 : null));
		});
		child.once('error', () => {
			done = true;
			running.delete(pid);
			resolve(127);
		});
	});
	for (const stream of [child.stdout!, child.stderr!]) keepLines(stream, logs, options);
	const tracked: Tracked = {
		name,
		pid,
		logs,
		exited,
		alive: () => !done,
		async stop(signal = 'SIGTERM', graceMs = 20_000) {
			const below = descendants(pid);
			if (!done) {
				killQuietly(pid, signal);
				const timer = setTimeout(() => killQuietly(pid, 'SIGKILL'), graceMs);
				await exited;
				clearTimeout(timer);
			}
			for (const orphan of below) killQuietly(orphan, 'SIGKILL');
		},
	};
	running.set(pid, tracked);
	return tracked;
}

/** The stream's lines: kept (the last MAX_LINES), passed to `onLine`, appended to `logFile`. */
function keepLines(
	stream: NodeJS.ReadableStream,
	logs: string[],
	options: { onLine?: (line: string) => void; logFile?: string },
): void {
	let rest = '';
	stream.setEncoding('utf8');
	stream.on('data', (chunk: string) => {
		const lines = (rest + chunk).split('\n');
		rest = lines.pop() ?? '';
		for (const line of lines) {
			if (line === '') continue;
			logs.push(line);
			options.onLine?.(line);
		}
		if (options.logFile)
			appendFileSync(
				options.logFile,
				lines
					.filter(Boolean)
					.map((line) => `${line}\n`)
					.join(''),
			);
		if (logs.length > MAX_LINES) logs.splice(0, logs.length - MAX_LINES);
	});
}

/** SIGKILL for everything still running (and what it started): the last resort on exit. */
export function killAllTracked(): void {
	for (const tracked of running.values()) {
		const below = descendants(tracked.pid);
		killQuietly(tracked.pid, 'SIGKILL');
		for (const pid of below) killQuietly(pid, 'SIGKILL');
	}
	running.clear();
}

/**
 * Runs `cleanup` on Ctrl-C, SIGTERM and uncaught errors, then exits; whatever is still running at
 * exit is killed by process id.
 */
export function installExitHandlers(
	cleanup: () => Promise<void>,
	log: (line: string) => void,
): void {
	let cleaning = false;
	const bail = (why: string, code: number) => {
		if (cleaning) return;
		cleaning = true;
		log(`${why}: stopping everything this run started…`);
		const hardStop = setTimeout(() => process.exit(code), 60_000);
		hardStop.unref();
		void cleanup()
			.catch((error: unknown) => log(`cleanup failed: ${String(error)}`))
			.finally(() => process.exit(code));
	};
	// `on`, not `once`: the signal may come twice (to the group, and relayed by npm or tsx), and the
	// second must not end the run in the middle of its cleanup.
	process.on('SIGINT', () => bail('interrupted', 130));
	process.on('SIGTERM', () => bail('terminated', 143));
	process.once('uncaughtException', (error) =>
		bail(`uncaught error ${error.stack ?? String(error)}`, 1),
	);
	process.once('unhandledRejection', (error) => bail(`unhandled rejection ${String(error)}`, 1));
	process.once('exit', killAllTracked);
}
