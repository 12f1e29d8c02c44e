import type { ToolInfo } from "./extension-api.js";
import type { ToolDefinition } from "./tool-definition.js";

/** Whether a tool joins the active set when it is registered: `defaultActive`, else direct/model-only. Hidden never. */
export function isToolActiveByDefault(definition: ToolDefinition): boolean {
	const exposure = definition.exposure ?? "direct";
	if (exposure === "hidden") return false;
	return definition.defaultActive ?? (exposure === "direct" || exposure === "model-only");
}

/** The `ToolInfo` listing of a definition registered by `source` (`"builtin"`, `"sdk"` or an extension). */
export function createToolInfo(definition: ToolDefinition, source: string): ToolInfo {
	const info: ToolInfo = {
		name: definition.name,
		label: definition.label,
		description: definition.description,
		exposure: definition.exposure ?? "direct",
		source,
	};
	if (definition.annotations !== undefined) info.annotations = definition.annotations;
	if (definition.namespace !== undefined) info.namespace = definition.namespace;
	return info;
}
