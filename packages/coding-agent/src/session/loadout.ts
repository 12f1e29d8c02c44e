import type { AgentTool } from "@gantry/agent";
import type { ToolDefinition, ToolLoadout } from "@gantry/extensions";
import type { RegistryEntry, ToolRegistry } from "./tool-registry.js";

export interface AppliedLoadout {
	/**
	 * What the next request declares: the active tools in order without the hidden declarations, with
	 * description overrides applied (copies; the originals are untouched).
	 */
	declared: AgentTool[];
	/** Definitions of the declared tools (for the system prompt). */
	declaredDefinitions: ToolDefinition[];
}

/**
 * Runs every active tool's `prepareLoadout`, then applies description overrides and hidden
 * declarations. A throwing `prepareLoadout` is reported through `onError` and ignored.
 */
export function applyToolLoadout(
	registry: ToolRegistry,
	onError: (error: unknown, tool: string) => void,
): AppliedLoadout {
	const activeEntries = registry.activeEntries();
	const loadout = createLoadoutView(registry, activeEntries);
	const descriptions = new Map<string, string>();
	const hidden = new Set<string>();
	for (const entry of activeEntries) {
		const prepare = entry.definition.prepareLoadout;
		if (!prepare) continue;
		try {
			const changes = prepare(loadout);
			for (const [name, description] of Object.entries(changes?.descriptions ?? {}))
				descriptions.set(name, description);
			for (const name of changes?.hiddenDeclarations ?? []) hidden.add(name);
		} catch (error) {
			onError(error, entry.definition.name);
		}
	}
	const declaredEntries = activeEntries.filter((entry) => !hidden.has(entry.definition.name));
	return {
		declared: declaredEntries.map((entry) => {
			const description = descriptions.get(entry.definition.name);
			return description === undefined ? entry.tool : { ...entry.tool, description };
		}),
		declaredDefinitions: declaredEntries.map((entry) => entry.definition),
	};
}

function createLoadoutView(registry: ToolRegistry, activeEntries: RegistryEntry[]): ToolLoadout {
	return {
		declared: activeEntries.map((entry) => entry.tool),
		callable: registry.callableEntries().map((entry) => entry.tool),
		registered: registry.registered().map((entry) => entry.tool),
		getExposure: (name) => registry.get(name)?.exposure,
		getNamespace: (name) => registry.get(name)?.definition.namespace,
		getPromptGuidelines: (name) => registry.get(name)?.definition.promptGuidelines ?? [],
	};
}
