import { setImmediate as nextTurn } from "node:timers/promises";

/** The text every search tool throws when its signal fires. */
export const ABORTED_MESSAGE = "Operation aborted";

/** Throws `Operation aborted` when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error(ABORTED_MESSAGE);
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
