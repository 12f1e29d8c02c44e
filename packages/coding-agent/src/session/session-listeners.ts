/**
 * A session's listeners: event listeners (each failure reported, the others still called) and diagnostic
 * listeners (problems the session recovered from).
 */
export class SessionListeners<TEvent extends { type: string }> {
	readonly #listeners: ((event: TEvent) => void | Promise<void>)[] = [];
	readonly #diagnosticListeners: ((message: string, error?: unknown) => void)[] = [];

	/** Adds an event listener; returns the remover. */
	subscribe(listener: (event: TEvent) => void | Promise<void>): () => void {
		return add(this.#listeners, listener);
	}

	/** Adds a diagnostic listener; returns the remover. */
	onDiagnostic(listener: (message: string, error?: unknown) => void): () => void {
		return add(this.#diagnosticListeners, listener);
	}

	/** Calls every event listener in order, awaiting each; a throwing one is reported. */
	async deliver(event: TEvent): Promise<void> {
		for (const listener of this.#listeners.slice()) {
			try {
				await listener(event);
			} catch (error) {
				this.report(`a session listener failed on ${event.type}`, error);
			}
		}
	}

	/** Tells the diagnostic listeners. */
	report(message: string, error?: unknown): void {
		for (const listener of this.#diagnosticListeners) {
			try {
				listener(message, error);
			} catch {
				// A diagnostic listener that throws has nobody left to tell.
			}
		}
	}
}

function add<T>(list: T[], item: T): () => void {
	list.push(item);
	return () => {
		const index = list.indexOf(item);
		if (index !== -1) list.splice(index, 1);
	};
}
