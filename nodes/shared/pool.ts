/**
 * The one worker pool: a few requests at a time, never more, in order. Used by Send's Batches in
 * Flight and by the trigger's registrations and restores.
 */

/**
 * Runs `work` over `items`, at most `size` at a time, starting them in order. When `work` answers
 * false, no item starts after that; those already running finish. Returns the first item (in
 * order) whose `work` answered false, if any.
 */
export async function inPool<T>(
	items: T[],
	size: number,
	work: (item: T) => Promise<boolean>,
): Promise<T | undefined> {
	let next = 0;
	let stopped: number | undefined;
	const worker = async () => {
		while (next < items.length && stopped === undefined) {
			const index = next++;
			const carryOn = await work(items[index]);
			if (!carryOn && (stopped === undefined || index < stopped)) stopped = index;
		}
	};
	await Promise.all(Array.from({ length: Math.min(Math.max(1, size), items.length) }, worker));
	return stopped === undefined ? undefined : items[stopped];
}
