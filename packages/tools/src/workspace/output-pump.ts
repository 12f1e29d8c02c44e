/** After the process exited, reading goes on while output keeps arriving within each of these (ms)... */
export const DEFAULT_DRAIN_MS = 100;
/** ...at most this many times, then stops (a background process may hold the output open for ever). */
const MAX_BUSY_DRAIN_CHECKS = 20;

/** How one process's output is read: its streams, paused and resumed together, and the end of reading. */
export interface OutputPumpOptions {
	/** Stops delivery from every output stream of the process (flow control). */
	pause(): void;
	/** Starts it again. */
	resume(): void;
	/** Ends reading for good (destroy the streams, close the channel). Called at most once. */
	stop(): void;
	/** See `DEFAULT_DRAIN_MS`. */
	drainMs?: number;
}

/** The read-pause-drain loop every Workspace's `spawn` needs, for any transport. */
export interface OutputPump {
	/**
	 * Hands `chunk` to `consumer` (`onStdout` / `onStderr`). When the consumer returns a promise (and only
	 * then: a plain JavaScript consumer may return anything), every stream is paused until it settles.
	 */
	deliver(consumer: ((data: Buffer) => Promise<void> | undefined) | undefined, chunk: Buffer): void;
	/**
	 * The process exited. Output a background process still writes is read while it keeps coming, within
	 * `drainMs` each time and at most 20 times, then `stop` is called (also while a consumer is busy it waits).
	 */
	exited(): void;
	/** Cancels a pending drain check (call when the spawn settles). */
	dispose(): void;
}

/**
 * Makes the output pump of one process: flow control towards slow consumers, and an end of reading that
 * neither cuts a command's last output nor waits for ever on a daemon that inherited the pipe.
 *
 * @example
 * const pump = createOutputPump({ pause: () => channel.pause(), resume: () => channel.resume(), stop: () => channel.close() });
 * channel.on("data", (chunk) => pump.deliver(options.onStdout, chunk));
 * channel.once("exit", () => pump.exited());
 */
export function createOutputPump(options: OutputPumpOptions): OutputPump {
	const drainMs = options.drainMs ?? DEFAULT_DRAIN_MS;
	let paused = false;
	let receivedSinceCheck = false;
	let busyChecks = 0;
	let drainTimer: NodeJS.Timeout | undefined;
	let stopped = false;
	const stop = () => {
		if (stopped) return;
		stopped = true;
		options.stop();
	};
	const checkDrained = () => {
		const busy = paused || (receivedSinceCheck && busyChecks++ < MAX_BUSY_DRAIN_CHECKS);
		receivedSinceCheck = false;
		if (busy) drainTimer = setTimeout(checkDrained, drainMs);
		else stop();
	};
	return {
		deliver(consumer, chunk) {
			receivedSinceCheck = true;
			if (consumer === undefined || chunk.length === 0) return;
			const wait: unknown = consumer(chunk);
			if (!isPromiseLike(wait) || paused) return;
			paused = true;
			options.pause();
			const resume = () => {
				paused = false;
				if (!stopped) options.resume();
			};
			wait.then(resume, resume);
		},
		exited() {
			receivedSinceCheck = false;
			clearTimeout(drainTimer);
			drainTimer = setTimeout(checkDrained, drainMs);
		},
		dispose() {
			clearTimeout(drainTimer);
		},
	};
}

/** True for a promise (or any thenable): the only return value of an output consumer that asks to wait. */
function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
	return typeof (value as { then?: unknown } | null | undefined)?.then === "function";
}
