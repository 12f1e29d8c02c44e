/**
 * A session-wide lock for exclusive nested calls. A call that already holds it (or descends from one
 * that does) runs its own nested calls without waiting, so an exclusive call never deadlocks on itself.
 */
export class ExclusiveLock {
	#tail: Promise<void> = Promise.resolve();
	readonly #holders = new Set<string>();

	/** Whether `id` or one of its ancestors (`a/1` is the parent of `a/1/2`) holds the lock. */
	isHeldBy(id: string): boolean {
		for (let cut = id.length; cut > 0; cut = id.lastIndexOf("/", cut - 1)) {
			if (this.#holders.has(id.slice(0, cut))) return true;
		}
		return false;
	}

	/** Runs `task` holding the lock as `id` (directly, when `callerId`'s chain already holds it). */
	async run<T>(id: string, callerId: string, task: () => Promise<T>): Promise<T> {
		if (this.isHeldBy(callerId)) return task();
		const previous = this.#tail;
		let release!: () => void;
		this.#tail = new Promise<void>((resolve) => {
			release = resolve;
		});
		await previous;
		this.#holders.add(id);
		try {
			return await task();
		} finally {
			this.#holders.delete(id);
			release();
		}
	}
}
