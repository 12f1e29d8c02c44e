import type { ToolAnnotations } from "@gantry/extensions";

/** MCP's annotation fields, as an untrusted server may send them. */
export interface McpToolAnnotations {
	title?: unknown;
	readOnlyHint?: unknown;
	destructiveHint?: unknown;
	idempotentHint?: unknown;
	openWorldHint?: unknown;
}

const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/**
 * The annotations Gantry gives an MCP tool: the server's hints exactly as it sent them (every boolean
 * kept, `destructiveHint: false` included; values that are not booleans left out), marked
 * `hintTrust: "readOnlyHint"` because they come from a program nobody vetted — the permission policy
 * then lets only `readOnlyHint: true` run a call without asking. The user's `readOnly` setting for the
 * tool, when given, replaces the server's `readOnlyHint`. A server of a project's `.mcp.json` gets
 * `hintTrust: "none"` and its file's `readOnly` is ignored (the file is not the user's word): none of
 * its hints count, so each call asks (or is blocked without a UI) until a rule allows it.
 */
export function trustedAnnotations(
	hints: McpToolAnnotations | undefined,
	userReadOnly: boolean | undefined,
	scope: "user" | "project" = "user",
): ToolAnnotations {
	const annotations: ToolAnnotations = {};
	for (const hint of HINTS) {
		const value = hints?.[hint];
		if (typeof value === "boolean") annotations[hint] = value;
	}
	if (scope === "project") {
		annotations.hintTrust = "none";
		return annotations;
	}
	if (userReadOnly !== undefined) annotations.readOnlyHint = userReadOnly;
	annotations.hintTrust = "readOnlyHint";
	return annotations;
}
