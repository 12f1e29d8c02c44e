import type { ToolAnnotations } from "@gantry/extensions";

/** How the policy classifies a tool, from its MCP-style annotations. */
export type PermissionClass = "read-only" | "needs-approval";

/**
 * Classifies by annotations with MCP's defaults: a tool is read-only only when it says so; any other
 * tool may change things or reach the outside world unless it declares neither. Hints from a program
 * nobody vetted count only as far as `hintTrust` says: `"readOnlyHint"` takes `readOnlyHint: true` alone,
 * `"none"` takes no hint at all (the tool always needs approval, or a rule).
 */
export function classifyTool(annotations: ToolAnnotations | undefined): PermissionClass {
	const trust = annotations?.hintTrust;
	if (trust === "none") return "needs-approval";
	if (annotations?.readOnlyHint === true) return "read-only";
	if (trust === "readOnlyHint") return "needs-approval";
	if (annotations?.destructiveHint === false && annotations.openWorldHint === false) return "read-only";
	return "needs-approval";
}
