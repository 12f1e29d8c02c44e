import type { AgentTool } from "@gantry/agent";
import type { ToolDefinition, ToolExposure, ToolInfo } from "@gantry/extensions";
import { createToolInfo } from "@gantry/extensions";

/** A tool definition together with where it came from. */
export interface ToolSource {
	definition: ToolDefinition;
	/** `"builtin"`, `"sdk"`, or the extension's path or name. */
	source: string;
}

export interface RegistryEntry extends ToolSource {
	exposure: ToolExposure;
	tool: AgentTool;
}

export interface RebuildOptions {
	/** The allow/deny filter; tools it rejects are never registered. */
	isAllowed: (name: string) => boolean;
	/** Names the allowlist spells out exactly: activated when they first register. */
	namedInAllowlist: ReadonlySet<string>;
	/** Wraps a definition into the tool the loop runs. */
	wrap: (definition: ToolDefinition) => AgentTool;
}

/** Whether a tool of this exposure activates on registration when `defaultActive` is unset. */
function activeByDefault(definition: ToolDefinition, exposure: ToolExposure): boolean {
	if (exposure === "hidden") return false;
	return definition.defaultActive ?? (exposure === "direct" || exposure === "model-only");
}

/** Options of `new ToolRegistry(...)`. */
export interface ToolRegistryOptions {
	/**
	 * The tool that finds deferred tools (`tool_search`): active whenever a deferred tool is registered,
	 * since nothing else reaches those, and left out again when none is (unless it was activated by name).
	 * Default: none.
	 */
	searchTool?: string;
}

/**
 * The three tool sets of a session, and the only place the active set lives: registered (every tool
 * that passed the filter), active (declared to the model, in a stable order) and callable (reachable by
 * `ctx.executeTool`). The active list keeps the place of an active tool that is withdrawn (or restored
 * from a transcript before it registered), so the tool comes back where it was.
 */
export class ToolRegistry {
	readonly #searchTool: string | undefined;
	/** Whether the search tool is active only because deferred tools are registered. */
	#searchIsAutomatic = false;
	#entries = new Map<string, RegistryEntry>();
	/** Active names in order; names not registered now hold their place until they return. */
	#active: string[] = [];
	/** Every name that was ever registered (a returning tool is not "new"). */
	readonly #seen = new Set<string>();
	/** Why a tool that was registered is gone: answered to calls that still name it. */
	readonly #withdrawn = new Map<string, string>();
	/** Reasons announced for removals the next rebuild will see. */
	readonly #reasons = new Map<string, string>();

	constructor(options: ToolRegistryOptions = {}) {
		this.#searchTool = options.searchTool;
	}

	/**
	 * Rebuilds from the layered sources (later layers replace same-named tools of earlier ones).
	 * Next active = previous active ∪ allowlist-named new tools ∪ new default-active tools; kept tools
	 * keep their place, returning tools take theirs again, new ones append.
	 */
	rebuild(sources: readonly ToolSource[], options: RebuildOptions): void {
		const merged = new Map<string, ToolSource>();
		for (const source of sources) {
			if (options.isAllowed(source.definition.name)) merged.set(source.definition.name, source);
		}
		const previous = this.#entries;
		const entries = new Map<string, RegistryEntry>();
		const additions: string[] = [];
		for (const [name, source] of merged) {
			const exposure = source.definition.exposure ?? "direct";
			const reused = previous.get(name);
			const tool = reused && reused.definition === source.definition ? reused.tool : options.wrap(source.definition);
			entries.set(name, { ...source, exposure, tool });
			const isNew = !this.#seen.has(name);
			this.#seen.add(name);
			this.#withdrawn.delete(name);
			if (isNew && (options.namedInAllowlist.has(name) || activeByDefault(source.definition, exposure))) {
				if (exposure !== "hidden") additions.push(name);
			}
		}
		for (const [name, entry] of previous) {
			if (!entries.has(name))
				this.#withdrawn.set(name, this.#reasons.get(name) ?? `it was withdrawn by ${entry.source}`);
		}
		this.#reasons.clear();
		this.#entries = entries;
		this.#active = appendUnique(this.#active, additions);
		this.#declareSearchTool();
	}

	/** Records why `names` are about to disappear (the next `rebuild` applies it). */
	noteRemoval(names: readonly string[], reason: string): void {
		for (const name of names) this.#reasons.set(name, reason);
	}

	/**
	 * The tool a call should run, looked up at call time (a `ToolResolver`): the current version of a
	 * declared tool, the reason it is gone as an error text, or undefined for a tool never declared.
	 */
	resolve(name: string, declared: AgentTool | undefined): AgentTool | string | undefined {
		const entry = this.#entries.get(name);
		if (entry !== undefined && entry.exposure !== "hidden") return declared === undefined ? undefined : entry.tool;
		const why = entry !== undefined ? "it is hidden now" : this.#withdrawn.get(name);
		if (why === undefined) return undefined;
		return `Tool ${name} is no longer available: ${why}`;
	}

	/**
	 * Replaces the active set; unknown and hidden names are ignored (a withdrawn tool's place is kept
	 * when it is named). Returns the new active names.
	 */
	setActive(names: readonly string[]): string[] {
		if (this.#searchTool !== undefined && names.includes(this.#searchTool)) this.#searchIsAutomatic = false;
		return this.#replaceActive(names);
	}

	#replaceActive(names: readonly string[]): string[] {
		const holding = new Set(this.#active.filter((name) => !this.#entries.has(name)));
		const wanted = names.filter((name) => this.#isActivatable(name) || holding.has(name));
		const wantedSet = new Set(wanted);
		this.#active = appendUnique(
			this.#active.filter((name) => wantedSet.has(name)),
			wanted,
		);
		this.#declareSearchTool();
		return this.activeNames();
	}

	/** Adds names to the active set (unknown and hidden ones ignored). */
	activate(names: readonly string[]): string[] {
		if (this.#searchTool !== undefined && names.includes(this.#searchTool)) this.#searchIsAutomatic = false;
		return this.#replaceActive([...this.#active, ...names]);
	}

	/** Restores a persisted active set: names not registered yet hold their place until they register. */
	restoreActive(names: readonly string[]): void {
		this.#searchIsAutomatic = false;
		this.#active = appendUnique(
			[],
			names.filter((name) => !this.#entries.has(name) || this.#isActivatable(name)),
		);
		this.#declareSearchTool();
	}

	/** Drops held places of names that never registered (called at the first run); returns them. */
	dropPending(): string[] {
		const dropped = this.#active.filter((name) => !this.#seen.has(name));
		if (dropped.length > 0) this.#active = this.#active.filter((name) => this.#seen.has(name));
		return dropped;
	}

	get(name: string): RegistryEntry | undefined {
		return this.#entries.get(name);
	}

	registered(): RegistryEntry[] {
		return [...this.#entries.values()];
	}

	activeNames(): string[] {
		return this.#active.filter((name) => this.#isActivatable(name));
	}

	activeEntries(): RegistryEntry[] {
		const entries: RegistryEntry[] = [];
		for (const name of this.#active) {
			const entry = this.#entries.get(name);
			if (entry !== undefined && entry.exposure !== "hidden") entries.push(entry);
		}
		return entries;
	}

	isActive(name: string): boolean {
		return this.#isActivatable(name) && this.#active.includes(name);
	}

	/** Callable: every codemode/deferred tool plus active direct tools; never model-only or hidden. */
	isCallable(entry: RegistryEntry): boolean {
		if (entry.exposure === "codemode" || entry.exposure === "deferred") return true;
		return entry.exposure === "direct" && this.isActive(entry.definition.name);
	}

	callableEntries(): RegistryEntry[] {
		return this.registered().filter((entry) => this.isCallable(entry));
	}

	info(entry: RegistryEntry): ToolInfo {
		return createToolInfo(entry.definition, entry.source);
	}

	/**
	 * Keeps the search tool declared while deferred tools are registered (appended once, so the other tools
	 * keep their places), and withdraws it when the last one goes if it was there only for them.
	 */
	#declareSearchTool(): void {
		const search = this.#searchTool;
		if (search === undefined) return;
		const wanted =
			this.#isActivatable(search) && [...this.#entries.values()].some((entry) => entry.exposure === "deferred");
		const present = this.#active.includes(search);
		if (wanted && !present) {
			this.#active = [...this.#active, search];
			this.#searchIsAutomatic = true;
		} else if (!wanted && present && this.#searchIsAutomatic) {
			this.#active = this.#active.filter((name) => name !== search);
			this.#searchIsAutomatic = false;
		}
	}

	#isActivatable(name: string): boolean {
		const entry = this.#entries.get(name);
		return entry !== undefined && entry.exposure !== "hidden";
	}
}

function appendUnique(base: readonly string[], additions: readonly string[]): string[] {
	const result = [...base];
	const seen = new Set(base);
	for (const name of additions) {
		if (!seen.has(name)) {
			seen.add(name);
			result.push(name);
		}
	}
	return result;
}
