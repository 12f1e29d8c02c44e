/** How long a request may go without a byte from the server before it ends. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * Ends a request whose server stops sending. Its `fetch` (handed to the provider SDK) arms a timer when
 * the request goes out and re-arms it on the response headers and on every chunk of the body; when the
 * timer fires, `signal` aborts and `timedOut` turns true. `signal` also follows the caller's signal.
 */
export class IdleWatch {
	readonly signal: AbortSignal;
	readonly #controller = new AbortController();
	readonly #ms: number;
	#timer: ReturnType<typeof setTimeout> | undefined;
	#timedOut = false;

	constructor(ms: number, parent?: AbortSignal) {
		this.#ms = ms;
		this.signal = parent ? AbortSignal.any([parent, this.#controller.signal]) : this.#controller.signal;
	}

	/** Whether the timer fired (the request was cut for silence, not by the caller). */
	get timedOut(): boolean {
		return this.#timedOut;
	}

	/** The message a timed-out request ends with. */
	get message(): string {
		const seconds = Math.round(this.#ms / 100) / 10;
		return `The server sent nothing for ${seconds} s (idleTimeoutMs: ${this.#ms}); the request was ended`;
	}

	readonly fetch: Fetch = async (input, init) => {
		this.#arm();
		let response: Response;
		try {
			response = await globalThis.fetch(input, init);
		} catch (error) {
			this.disarm();
			throw error;
		}
		this.#arm();
		if (!response.body) {
			this.disarm();
			return response;
		}
		const watched = response.body.pipeThrough(
			new TransformStream<Uint8Array, Uint8Array>({
				transform: (chunk, controller) => {
					this.#arm();
					controller.enqueue(chunk);
				},
				flush: () => this.disarm(),
			}),
		);
		return new Response(watched, {
			status: response.status,
			statusText: response.statusText,
			headers: response.headers,
		});
	};

	/** Stops the timer (between retries and at the end of the request). */
	disarm(): void {
		if (this.#timer) clearTimeout(this.#timer);
		this.#timer = undefined;
	}

	#arm(): void {
		this.disarm();
		if (this.signal.aborted) return;
		this.#timer = setTimeout(() => {
			this.#timedOut = true;
			this.#controller.abort(new Error(this.message));
		}, this.#ms);
		this.#timer.unref?.();
	}
}
