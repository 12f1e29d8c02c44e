import { withoutUndefined } from "@gantry/ai";
import type { ToolDefinition } from "@gantry/extensions";
import { createAllToolDefinitions, type Workspace } from "@gantry/tools";
import { createCodemodeToolDefinition } from "../codemode/index.js";
import type { SearchSkipPaths } from "../permissions/search-skips.js";
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
	/** What grep's folder searches leave unread (the session's read rules), if anything. */
	grepSkips?: SearchSkipPaths;
}

/** Both tests: the session's rules' and one given in `toolOptions.grep`. */
function eitherSkips(first: SearchSkipPaths | undefined, second: SearchSkipPaths | undefined) {
	if (first === undefined || second === undefined) return first ?? second;
	return async (root: string) => {
		const [one, two] = await Promise.all([first(root), second(root)]);
		if (one === undefined || two === undefined) return one ?? two;
		return (path: string) => one(path) || two(path);
	};
}

/** The builtin layer of the registry: the `@gantry/tools` builtins plus `codemode` and `tool_search`. */
export function createBuiltinToolSources(environment: SessionToolsEnvironment): ToolSource[] {
	const { options, registry } = environment;
	if (options.noTools === "all") return [];
	const sources: ToolSource[] = [];
	if (options.noTools !== "builtin") {
		const skipPaths = eitherSkips(environment.grepSkips, options.toolOptions?.grep?.skipPaths);
		const builtins = createAllToolDefinitions(environment.workspace, {
			...options.toolOptions,
			...(skipPaths === undefined ? {} : { grep: { ...options.toolOptions?.grep, skipPaths } }),
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
