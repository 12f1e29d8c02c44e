import type { ToolAnnotations } from "@gantry/extensions";

/** How the policy classifies a tool, from its MCP-style annotations. */
export type PermissionClass = "read-only" | "needs-approval";

/**
 * Classifies by annotations with MCP's defaults: a tool is read-only only when it says so; any other
 * tool may change things or reach the outside world unless it declares neither.
 */
export function classifyTool(annotations: ToolAnnotations | undefined): PermissionClass {
	if (annotations?.readOnlyHint === true) return "read-only";
	if (annotations?.destructiveHint === false && annotations.openWorldHint === false) return "read-only";
	return "needs-approval";
}
