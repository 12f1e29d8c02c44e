import { setImmediate as nextTurn } from "node:timers/promises";

/** The text every builtin throws (and every Workspace operation rejects with) when its signal fires. */
export const ABORTED_MESSAGE = "Operation aborted";

/** Throws `Operation aborted` when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
}

/**
 * One real listener per signal, whatever the number of calls waiting on it: twelve parallel tool calls
 * sharing the loop's signal would otherwise add twelve listeners and make Node print
 * `MaxListenersExceededWarning`.
 */
const waiting = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `listener` once when `signal` fires (at once when it has fired already); returns a function that
 * stops waiting. However many calls wait on one signal, it carries a single listener.
 */
export function onAbort(signal: AbortSignal | undefined, listener: () => void): () => void {
	if (signal === undefined) return () => {};
	if (signal.aborted) {
		listener();
		return () => {};
	}
	let listeners = waiting.get(signal);
	if (listeners === undefined) {
		const set = new Set<() => void>();
		listeners = set;
		waiting.set(signal, set);
		signal.addEventListener(
			"abort",
			() => {
				waiting.delete(signal);
				for (const waiter of set) waiter();
			},
			{ once: true },
		);
	}
	const entry = () => listener();
	listeners.add(entry);
	return () => {
		listeners.delete(entry);
	};
}

/**
 * A signal of this call alone that fires when `parent` fires (or `abort()` is called), for handing to a
 * Workspace operation: the parent gets no listener of its own per call. Call `dispose()` when done.
 */
export function childAbortController(parent: AbortSignal | undefined): {
	controller: AbortController;
	dispose(): void;
} {
	const controller = new AbortController();
	const dispose = onAbort(parent, () => controller.abort());
	return { controller, dispose };
}

/** How long a search may hold the event loop before it lets timers and I/O run. */
const SLICE_MS = 12;

/**
 * Lets the event loop breathe during long synchronous-heavy loops: `pause()` yields once a time slice
 * is used up (and throws `Operation aborted` if the signal fired meanwhile); otherwise it is free.
 */
export class TimeSlicer {
	private sliceStart = performance.now();

	constructor(private readonly signal: AbortSignal | undefined) {}

	async pause(): Promise<void> {
		throwIfAborted(this.signal);
		if (performance.now() - this.sliceStart < SLICE_MS) return;
		await nextTurn();
		throwIfAborted(this.signal);
		this.sliceStart = performance.now();
	}
}
