/**
 * A worker pool: a few requests at a time, never more, in order. Used by the trigger's
 * registrations and restores.
 */

/**
 * Items handed out in order to workers running at the same time. After `stop(index)` no item is
 * handed out any more (those already running finish); `stopped` is the first stopped item in order.
 */
export class WorkQueue<T> {
	private next = 0;
	private stoppedAt: number | undefined;

	constructor(readonly items: readonly T[]) {}

	/** The index of the next item to start; undefined when none is left or the queue stopped. */
	take(): number | undefined {
		if (this.next >= this.items.length || this.stoppedAt !== undefined) return undefined;
		return this.next++;
	}

	stop(index: number): void {
		if (this.stoppedAt === undefined || index < this.stoppedAt) this.stoppedAt = index;
	}

	get stopped(): T | undefined {
		return this.stoppedAt === undefined ? undefined : this.items[this.stoppedAt];
	}

	/**
	 * Starts `size` workers (one at least, never more than items), each taking items until none is
	 * left; settles when all have ended.
	 */
	workers(size: number, worker: () => Promise<void>): Promise<void[]> {
		const count = Math.min(Math.max(1, size), this.items.length);
		return Promise.all(Array.from({ length: count }, worker));
	}
}
