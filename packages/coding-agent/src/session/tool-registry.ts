import type { AgentTool } from "@gantry/agent";
import type { ToolDefinition, ToolExposure, ToolInfo } from "@gantry/extensions";

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

/**
 * The three tool sets of a session: registered (every tool that passed the filter), active (declared
 * to the model, in a stable order) and callable (reachable by `ctx.executeTool`).
 */
export class ToolRegistry {
	#entries = new Map<string, RegistryEntry>();
	#active: string[] = [];
	#pending = new Set<string>();

	/**
	 * Rebuilds from the layered sources (later layers replace same-named tools of earlier ones).
	 * Next active = previous active ∪ allowlist-named new tools ∪ new default-active tools ∪ pending
	 * tools that registered now; kept tools keep their place, new ones append.
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
			const isNew = !previous.has(name);
			const wanted =
				this.#pending.has(name) ||
				(isNew && (options.namedInAllowlist.has(name) || activeByDefault(source.definition, exposure)));
			if (wanted && exposure !== "hidden") additions.push(name);
			if (this.#pending.has(name)) this.#pending.delete(name);
		}
		this.#entries = entries;
		const kept = this.#active.filter((name) => {
			const entry = entries.get(name);
			return entry !== undefined && entry.exposure !== "hidden";
		});
		this.#active = appendUnique(kept, additions);
	}

	/** Replaces the active set; unknown and hidden names are ignored. Returns the new active names. */
	setActive(names: readonly string[]): string[] {
		const wanted = names.filter((name) => {
			const entry = this.#entries.get(name);
			return entry !== undefined && entry.exposure !== "hidden";
		});
		const wantedSet = new Set(wanted);
		this.#active = appendUnique(
			this.#active.filter((name) => wantedSet.has(name)),
			wanted,
		);
		return this.activeNames();
	}

	/** Adds names to the active set (unknown and hidden ones ignored). */
	activate(names: readonly string[]): string[] {
		return this.setActive([...this.#active, ...names]);
	}

	/** Restored names that are not registered yet stay pending until they register. */
	restoreActive(names: readonly string[]): void {
		const known: string[] = [];
		for (const name of names) {
			if (this.#entries.has(name)) known.push(name);
			else this.#pending.add(name);
		}
		this.setActive(known);
	}

	/** Drops pending names that never registered (called at the first run). */
	dropPending(): string[] {
		const dropped = [...this.#pending];
		this.#pending.clear();
		return dropped;
	}

	pendingNames(): string[] {
		return [...this.#pending];
	}

	get(name: string): RegistryEntry | undefined {
		return this.#entries.get(name);
	}

	registered(): RegistryEntry[] {
		return [...this.#entries.values()];
	}

	activeNames(): string[] {
		return [...this.#active];
	}

	activeEntries(): RegistryEntry[] {
		return this.#active.map((name) => this.#entries.get(name)).filter((entry) => entry !== undefined);
	}

	isActive(name: string): boolean {
		return this.#active.includes(name);
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
		const { definition } = entry;
		const info: ToolInfo = {
			name: definition.name,
			label: definition.label,
			description: definition.description,
			exposure: entry.exposure,
			source: entry.source,
		};
		if (definition.annotations) info.annotations = definition.annotations;
		if (definition.namespace) info.namespace = definition.namespace;
		return info;
	}
}

function appendUnique(base: string[], additions: readonly string[]): string[] {
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
