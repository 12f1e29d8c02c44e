import type { ServerResponse } from "node:http";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** One HTTP session: a place in the pool from the initialize request on, its id once the SDK gave one. */
export interface HttpSession {
	id?: string;
	transport?: StreamableHTTPServerTransport;
	/** Requests of the session whose responses are still open (a call's SSE answer counts while it lasts). */
	active: number;
	timer?: NodeJS.Timeout | undefined;
}

/** A session the SDK has given an id: requests carrying the id reach its transport. */
export interface LiveSession extends HttpSession {
	id: string;
	transport: StreamableHTTPServerTransport;
}

/**
 * The live sessions of one listener: at most `max` at once (a place is taken when an initialize
 * starts, so a burst of initializes cannot overshoot), and each closed once it has had no open request
 * for `idleMs`.
 */
export class SessionPool {
	readonly #max: number;
	readonly #idleMs: number;
	readonly #all = new Set<HttpSession>();
	readonly #byId = new Map<string, LiveSession>();

	constructor(max: number, idleMs: number) {
		this.#max = max;
		this.#idleMs = idleMs;
	}

	get size(): number {
		return this.#all.size;
	}

	/** A new session's place, or undefined when the pool is full. */
	open(): HttpSession | undefined {
		if (this.#all.size >= this.#max) return undefined;
		const session: HttpSession = { active: 0 };
		this.#all.add(session);
		this.#arm(session);
		return session;
	}

	register(session: HttpSession, id: string, transport: StreamableHTTPServerTransport): void {
		if (!this.#all.has(session)) return;
		session.id = id;
		session.transport = transport;
		this.#byId.set(id, session as LiveSession);
	}

	get(id: string): LiveSession | undefined {
		return this.#byId.get(id);
	}

	/** Counts `response` as activity of `session` until it closes; the idle clock starts after the last one. */
	track(session: HttpSession, response: ServerResponse): void {
		session.active++;
		clearTimeout(session.timer);
		session.timer = undefined;
		response.once("close", () => {
			session.active--;
			if (session.active === 0) this.#arm(session);
		});
	}

	/** Forgets `session` (its transport closed). */
	release(session: HttpSession): void {
		clearTimeout(session.timer);
		this.#all.delete(session);
		if (session.id !== undefined && this.#byId.get(session.id) === session) this.#byId.delete(session.id);
	}

	async closeAll(): Promise<void> {
		const sessions = [...this.#all];
		await Promise.all(sessions.map((session) => this.#close(session)));
		this.#all.clear();
		this.#byId.clear();
	}

	#arm(session: HttpSession): void {
		if (!this.#all.has(session)) return;
		clearTimeout(session.timer);
		session.timer = setTimeout(() => void this.#close(session), this.#idleMs);
		session.timer.unref();
	}

	async #close(session: HttpSession): Promise<void> {
		const transport = session.transport;
		this.release(session);
		await transport?.close().catch(() => {});
	}
}
