import { withoutUndefined } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { createAllToolDefinitions, type Workspace } from "@gantry/tools";
import { createCodemodeToolDefinition } from "../codemode/index.js";
import { createToolSearchToolDefinition } from "../tool-search/index.js";
import type { AgentSessionOptions } from "./session-options.js";
import type { ToolRegistry, ToolSource } from "./tool-registry.js";

/** Builtins that are registered but stay inactive unless named. */
const INACTIVE_BUILTINS = ["grep", "find", "ls", "powershell"];

/**
 * The builtins inactive by default for `model`: `apply_patch` takes the place of `edit` for a model that
 * edits with patches (its catalogue entry's `editFormat`: OpenAI's GPT-5 and codex models), and stays
 * inactive for the others.
 */
export function inactiveBuiltins(model: AgentSessionOptions["model"] | undefined): ReadonlySet<string> {
	const patches = model?.editFormat === "apply_patch";
	return new Set([...INACTIVE_BUILTINS, patches ? "edit" : "apply_patch"]);
}

export interface SessionToolsEnvironment {
	options: AgentSessionOptions;
	/** Where the builtins act; its processes die with the session. */
	workspace: Workspace;
	tempDir: string;
	registry: ToolRegistry;
	getModel(): AgentSessionOptions["model"];
	/** Adds tools to the active set (tool_search). */
	activate(names: string[]): void;
}

/** The builtin layer of the registry: the `@gantry/tools` builtins plus `codemode` and `tool_search`. */
export function createBuiltinToolSources(environment: SessionToolsEnvironment): ToolSource[] {
	const { options, registry } = environment;
	if (options.noTools === "all") return [];
	const sources: ToolSource[] = [];
	if (options.noTools !== "builtin") {
		const builtins = createAllToolDefinitions(environment.workspace, {
			...options.toolOptions,
			tempDir: environment.tempDir,
			model: environment.getModel,
			autoResizeImages: options.images?.autoResize ?? true,
		});
		const inactive = inactiveBuiltins(environment.getModel());
		for (const definition of Object.values(builtins) as ToolDefinition[]) {
			const adjusted = inactive.has(definition.name) ? { ...definition, defaultActive: false } : definition;
			sources.push({ definition: adjusted, source: "builtin" });
		}
	}
	const codemode = createCodemodeToolDefinition({
		...options.codemode,
		tempDir: environment.tempDir,
		workspace: environment.workspace,
		catalog: (name) => {
			const entry = registry.get(name);
			if (!entry) return undefined;
			return {
				exposure: entry.exposure,
				...withoutUndefined({ outputSchema: entry.definition.outputSchema, namespace: entry.definition.namespace }),
			};
		},
	});
	const toolSearch = createToolSearchToolDefinition({
		getCandidates: () =>
			registry
				.registered()
				.filter(
					(entry) =>
						(entry.exposure === "codemode" || entry.exposure === "deferred") &&
						!registry.isActive(entry.definition.name),
				)
				.map((entry) => ({
					name: entry.definition.name,
					description: entry.definition.description,
					parameters: entry.definition.parameters,
					...withoutUndefined({ namespace: entry.definition.namespace }),
				})),
		activate: (names) => environment.activate(names),
	});
	sources.push({ definition: codemode, source: "builtin" });
	sources.push({ definition: toolSearch, source: "builtin" });
	return sources;
}
