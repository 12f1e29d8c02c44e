import type { ToolAnnotations } from "@gantry/extensions";

/** MCP's annotation fields, as an untrusted server may send them. */
export interface McpToolAnnotations {
	title?: unknown;
	readOnlyHint?: unknown;
	destructiveHint?: unknown;
	idempotentHint?: unknown;
	openWorldHint?: unknown;
}

/**
 * The annotations Gantry gives an MCP tool. They are hints from a server nobody vetted, so only what
 * cannot loosen the permission policy is taken at face value: the tool is read-only only when the user
 * says so (`readOnly` in its settings) or, without a word from the user, when the server says
 * `readOnlyHint: true`. A tool that is not read-only never counts as closed-world-and-harmless (the
 * `destructiveHint: false` + `openWorldHint: false` pair is dropped), so it needs approval.
 */
export function trustedAnnotations(
	hints: McpToolAnnotations | undefined,
	userReadOnly: boolean | undefined,
): ToolAnnotations {
	const readOnly = userReadOnly ?? hints?.readOnlyHint === true;
	const annotations: ToolAnnotations = { readOnlyHint: readOnly };
	if (typeof hints?.idempotentHint === "boolean") annotations.idempotentHint = hints.idempotentHint;
	if (readOnly) {
		if (typeof hints?.openWorldHint === "boolean") annotations.openWorldHint = hints.openWorldHint;
		return annotations;
	}
	annotations.destructiveHint = hints?.destructiveHint !== false;
	annotations.openWorldHint = hints?.openWorldHint !== false || annotations.destructiveHint === false;
	return annotations;
}
