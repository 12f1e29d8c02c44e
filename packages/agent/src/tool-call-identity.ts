import type { ToolCall } from "@gantry/ai";

/** The calls of a batch, as far as their ids go (`AgentToolCall` is `ToolCall`; importing it from here would make an import circle with types.ts). */
type AgentToolCall = Pick<ToolCall, "id">;

/** The model-issued ids of one batch, so that nested ids never take one of them. */
class BatchIds {
	readonly #calls: readonly AgentToolCall[];
	#ids: Set<string> | undefined;

	constructor(calls: readonly AgentToolCall[]) {
		this.#calls = calls;
	}

	has(id: string): boolean {
		if (this.#ids === undefined) {
			this.#ids = new Set();
			for (const call of this.#calls) this.#ids.add(call.id);
		}
		return this.#ids.has(id);
	}
}

const NO_SIBLINGS = new BatchIds([]);
/** The path of every root: frozen, so sharing it is safe. */
const NO_PATH: readonly number[] = Object.freeze([]);

/**
 * Where a tool call sits: the model-issued call at the root and the numbers of the nested calls that
 * lead to it. `id` is how it is written on the wire (`<root>/<n>/<m>`); nothing ever parses an id back,
 * so a model-issued id that contains `/` cannot be mistaken for a nested one. Nested numbers skip any
 * that would spell the id of another model-issued call of the same batch.
 */
export class ToolCallIdentity {
	/** The id on the wire: the root's id, then `/<n>` per nesting level. */
	readonly id: string;
	/** The id of the model-issued call at the root. */
	readonly rootId: string;
	/** The nested call numbers from the root down to this call (empty for the root). */
	readonly path: readonly number[];
	/** The call that made this one; undefined for the root. */
	readonly parent: ToolCallIdentity | undefined;
	readonly #batch: BatchIds;
	#children = 0;

	private constructor(
		id: string,
		rootId: string,
		path: readonly number[],
		parent: ToolCallIdentity | undefined,
		batch: BatchIds,
	) {
		this.id = id;
		this.rootId = rootId;
		this.path = path;
		this.parent = parent;
		this.#batch = batch;
	}

	/**
	 * The identity of a model-issued call. `batch` (the calls of the same assistant message) keeps nested
	 * ids from spelling one of their ids.
	 */
	static root(id: string, batch?: readonly AgentToolCall[]): ToolCallIdentity {
		return new ToolCallIdentity(id, id, [], undefined, batch === undefined ? NO_SIBLINGS : new BatchIds(batch));
	}

	/**
	 * Makes the root identities of one batch's calls, sharing one record of the batch's ids (what `root`
	 * with `batch` does for a single call).
	 */
	static batch(calls: readonly AgentToolCall[]): { root(id: string): ToolCallIdentity } {
		const ids = new BatchIds(calls);
		return { root: (id) => new ToolCallIdentity(id, id, NO_PATH, undefined, ids) };
	}

	/** The identity of this call's next nested call: `<id>/<n>` with the next free number. */
	child(): ToolCallIdentity {
		let number = ++this.#children;
		while (this.#batch.has(`${this.id}/${number}`)) number = ++this.#children;
		return new ToolCallIdentity(`${this.id}/${number}`, this.rootId, [...this.path, number], this, this.#batch);
	}

	/** Whether this is `ancestor` or one of its nested calls (at any depth). */
	isWithin(ancestor: ToolCallIdentity): boolean {
		for (let identity: ToolCallIdentity | undefined = this; identity !== undefined; identity = identity.parent) {
			if (identity === ancestor) return true;
		}
		return false;
	}
}
