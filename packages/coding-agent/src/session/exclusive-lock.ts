import type { ToolCallIdentity } from "@gantry/agent";

/**
 * A session-wide lock for exclusive nested calls. A call that already holds it (or descends from one
 * that does) runs its own nested calls without waiting, so an exclusive call never deadlocks on itself.
 */
export class ExclusiveLock {
	#tail: Promise<void> = Promise.resolve();
	readonly #holders = new Set<ToolCallIdentity>();

	/** Whether `call` or one of the calls it descends from holds the lock. */
	isHeldBy(call: ToolCallIdentity): boolean {
		for (let identity: ToolCallIdentity | undefined = call; identity !== undefined; identity = identity.parent) {
			if (this.#holders.has(identity)) return true;
		}
		return false;
	}

	/** Runs `task` holding the lock as `call` (directly, when its caller's chain already holds it). */
	async run<T>(call: ToolCallIdentity, task: () => Promise<T>): Promise<T> {
		if (call.parent !== undefined && this.isHeldBy(call.parent)) return task();
		const previous = this.#tail;
		let release!: () => void;
		this.#tail = new Promise<void>((resolve) => {
			release = resolve;
		});
		await previous;
		this.#holders.add(call);
		try {
			return await task();
		} finally {
			this.#holders.delete(call);
			release();
		}
	}
}
