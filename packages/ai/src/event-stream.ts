import type { AssistantMessage, AssistantMessageEvent } from "./types.js";

/**
 * A push-based async-iterable queue of events with a final result. Producers `push` events and `end`
 * it; consumers iterate it (once) and/or await `result()`. Events pushed after the end are ignored.
 */
export class EventStream<TEvent, TResult> implements AsyncIterable<TEvent> {
	readonly #queue: TEvent[] = [];
	readonly #waiting: ((next: IteratorResult<TEvent>) => void)[] = [];
	readonly #isFinal: (event: TEvent) => boolean;
	readonly #resultOf: (event: TEvent) => TResult;
	readonly #result: Promise<TResult>;
	#resolveResult!: (result: TResult) => void;
	#rejectResult!: (error: unknown) => void;
	#done = false;

	/**
	 * @param isFinal tells which event carries the result; pushing it ends the stream.
	 * @param resultOf extracts the result from that event.
	 */
	constructor(isFinal: (event: TEvent) => boolean, resultOf: (event: TEvent) => TResult) {
		this.#isFinal = isFinal;
		this.#resultOf = resultOf;
		this.#result = new Promise<TResult>((resolve, reject) => {
			this.#resolveResult = resolve;
			this.#rejectResult = reject;
		});
		// A consumer that only iterates must not see an unhandled rejection.
		this.#result.catch(() => {});
	}

	push(event: TEvent): void {
		if (this.#done) return;
		const final = this.#isFinal(event);
		if (final) {
			this.#done = true;
			this.#resolveResult(this.#resultOf(event));
		}
		const waiter = this.#waiting.shift();
		if (waiter) waiter({ value: event, done: false });
		else this.#queue.push(event);
		if (final) this.#flushWaiters();
	}

	/**
	 * Ends the stream. With `result`, resolves `result()` to it (when no final event did already);
	 * without one and without a final event, `result()` rejects.
	 */
	end(result?: TResult): void {
		if (!this.#done) {
			this.#done = true;
			if (result !== undefined) this.#resolveResult(result);
			else this.#rejectResult(new Error("Event stream ended without a result"));
		}
		this.#flushWaiters();
	}

	result(): Promise<TResult> {
		return this.#result;
	}

	#flushWaiters(): void {
		for (const waiter of this.#waiting.splice(0)) waiter({ value: undefined, done: true });
	}

	[Symbol.asyncIterator](): AsyncIterator<TEvent> {
		return {
			next: (): Promise<IteratorResult<TEvent>> => {
				const event = this.#queue.shift();
				if (event !== undefined) return Promise.resolve({ value: event, done: false });
				if (this.#done) return Promise.resolve({ value: undefined, done: true });
				return new Promise((resolve) => this.#waiting.push(resolve));
			},
			return: (): Promise<IteratorResult<TEvent>> => Promise.resolve({ value: undefined, done: true }),
		};
	}
}

/** The stream every provider returns: events of one assistant message, ending with `done` or `error`. */
export interface AssistantMessageEventStream extends AsyncIterable<AssistantMessageEvent> {
	push(event: AssistantMessageEvent): void;
	end(): void;
	result(): Promise<AssistantMessage>;
}

export function createAssistantMessageEventStream(): AssistantMessageEventStream {
	return new EventStream<AssistantMessageEvent, AssistantMessage>(
		(event) => event.type === "done" || event.type === "error",
		(event) => {
			if (event.type === "done") return event.message;
			if (event.type === "error") return event.error;
			throw new Error("not a final event");
		},
	);
}
