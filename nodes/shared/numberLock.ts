/**
 * One change at a time per virtual number, within one n8n process.
 *
 * The service has no compare-and-set. A change of one setting is a read followed by a write of
 * every setting (a service may replace the whole record on update), so two changes of one number
 * that both read before either wrote undo each other: the one written last puts back what the other
 * changed (a description lost, or a trigger's callback URL replaced by the one it had before the
 * trigger was activated: the workflow shows active and no call reaches it). n8n runs executions and
 * trigger (de)activations of one process concurrently, so Virtual Number → Update, Account →
 * Restore Callback URLs and the trigger's activation and deactivation wait for each other here.
 *
 * Keyed by the service's address and the number; a trigger's activation or deactivation holds the
 * whole account. Two credentials may reach one account, so the key is the address, not the
 * credential.
 *
 * A lock needs state that every execution of the process sees: a module-level map is the only such
 * place (static data belongs to one workflow, and is saved, not shared). It holds no data, only
 * the order of the work waiting, and forgets a key when its work is done. Across processes (queue
 * mode workers, two n8n installations on one account) nothing can order the writes: Update reads
 * just before writing and re-reads after, and reports what changed meanwhile.
 */
import type { RequestContext } from './transport/http';
import { VIRTUALNUM_CREDENTIAL } from './transport/virtualnumApi';

/** The numbers a piece of work changes: some, or every number of the account. */
type LockScope = string[] | 'all';

interface Hold {
	numbers: Set<string> | 'all';
	done: Promise<void>;
}

/** Work holding or waiting for numbers, per account address, in arrival order. */
const holds = new Map<string, Hold[]>();

function overlaps(a: Hold['numbers'], b: Hold['numbers']): boolean {
	if (a === 'all' || b === 'all') return true;
	for (const number of a) if (b.has(number)) return true;
	return false;
}

/**
 * The account's key: the Base URL's scheme, host and port, any case. Base URLs that differ only
 * in their path (`/api/`, `/api/index.php`, a proxy's prefix) may reach one account; holding them
 * together costs only a little waiting.
 */
function accountKey(baseUrl: string): string {
	const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(baseUrl.trim());
	return (match ? match[0] : baseUrl.trim()).toLowerCase();
}

/**
 * Waits until no earlier work of this process on any of the same numbers of the account is
 * running or waiting; later work on them waits for this one until the answer is called. Work
 * never waits for later work, so nothing can wait in a circle, as long as the holder takes no
 * second turn before ending its first.
 */
async function turnFor(baseUrl: string, scope: LockScope): Promise<() => void> {
	const key = accountKey(baseUrl);
	const numbers = scope === 'all' ? 'all' : new Set(scope);
	const queue = holds.get(key) ?? [];
	const earlier = queue.filter((hold) => overlaps(hold.numbers, numbers)).map((hold) => hold.done);
	let release = () => {};
	const hold: Hold = { numbers, done: new Promise<void>((resolve) => (release = resolve)) };
	queue.push(hold);
	holds.set(key, queue);
	await Promise.all(earlier);
	return () => {
		release();
		const index = queue.indexOf(hold);
		if (index !== -1) queue.splice(index, 1);
		if (queue.length === 0 && holds.get(key) === queue) holds.delete(key);
	};
}

/**
 * The turn of `scope` of the account of the node's Virtual Number credential: resolves when it
 * may change those numbers; the answer ends the turn (call it in a `finally`).
 */
export async function numbersTurn(context: RequestContext, scope: LockScope): Promise<() => void> {
	const credentials = await context.getCredentials(VIRTUALNUM_CREDENTIAL);
	return await turnFor(String(credentials.baseUrl ?? ''), scope);
}

/** Runs `work` in the turn of `scope` (numbersTurn). */
export async function lockNumbers<T>(
	context: RequestContext,
	scope: LockScope,
	work: () => Promise<T>,
): Promise<T> {
	const end = await numbersTurn(context, scope);
	try {
		return await work();
	} finally {
		end();
	}
}
