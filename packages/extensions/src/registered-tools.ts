import type { ToolInfo } from "./extension-api.js";
import type { ToolDefinition } from "./tool-definition.js";
import { createToolInfo, isToolActiveByDefault } from "./tool-info.js";

/** The runner's tools by name, in registration order; the first registration of a name wins. */
export class RegisteredTools {
	readonly #tools = new Map<string, { definition: ToolDefinition; source: string }>();

	/** Adds the tool, or returns the source that registered the name first (and adds nothing). */
	add(definition: ToolDefinition, source: string): { conflictsWith?: string } {
		const existing = this.#tools.get(definition.name);
		if (existing !== undefined) return { conflictsWith: existing.source };
		this.#tools.set(definition.name, { definition, source });
		return {};
	}

	remove(names: readonly string[]): void {
		for (const name of names) this.#tools.delete(name);
	}

	definitions(): ToolDefinition[] {
		return [...this.#tools.values()].map((tool) => tool.definition);
	}

	sourceOf(name: string): string | undefined {
		return this.#tools.get(name)?.source;
	}

	infos(): ToolInfo[] {
		return [...this.#tools.values()].map((tool) => createToolInfo(tool.definition, tool.source));
	}

	/** Without a host: the requested names that are registered and not hidden, else the default-active tools. */
	activeNames(requested: readonly string[] | undefined): string[] {
		if (requested === undefined)
			return this.definitions()
				.filter(isToolActiveByDefault)
				.map((tool) => tool.name);
		const reachable = (name: string) => {
			const tool = this.#tools.get(name);
			return tool !== undefined && tool.definition.exposure !== "hidden";
		};
		return [...new Set(requested)].filter(reachable);
	}
}
