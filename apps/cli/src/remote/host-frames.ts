import type { AgentSession } from "@gantry/coding-agent";
import type { ToolDefinition } from "@gantry/extensions";
import { renderFallbackCall } from "../tui/fallback-render.js";

/** The builtins, which act on the session's workspace (extension tools run on this machine). */
const WORKSPACE_TOOLS = new Set(["read", "bash", "edit", "write", "grep", "find", "ls", "powershell", "apply_patch"]);

/**
 * The definitions the tool frames are drawn from. When the session's tools act on another host, each
 * builtin's call line ends with `· on user@host:port`, so the person sees where it ran.
 */
export function frameDefinitions(session: AgentSession): (name: string) => ToolDefinition | undefined {
	const { workspace } = session;
	if (workspace.isLocal) return (name) => session.getToolDefinition(name);
	const decorated = new Map<ToolDefinition, ToolDefinition>();
	return (name) => {
		const definition = session.getToolDefinition(name);
		if (!definition || !WORKSPACE_TOOLS.has(name)) return definition;
		let copy = decorated.get(definition);
		if (!copy) {
			const renderCall = definition.renderCall;
			copy = {
				...definition,
				renderCall(args, theme) {
					const drawn = renderCall?.call(definition, args, theme) ?? renderFallbackCall(name, args, theme);
					const [first, ...rest] = drawn.split("\n");
					return [`${first}${theme.muted(` · on ${workspace.label}`)}`, ...rest].join("\n");
				},
			};
			decorated.set(definition, copy);
		}
		return copy;
	};
}
