import type { Extension, ToolAnnotations, ToolCallEvent, ToolInfo } from "@gantry/extensions";
import { compileNamePatterns } from "../session/name-patterns.js";

export interface PermissionPolicyOptions {
	/**
	 * `"ask"` (default): tools that may change things ask through `ctx.ui` when there is a UI and are
	 * blocked otherwise. `"yes"`: everything runs (the CLI's `--yes`).
	 */
	mode?: "ask" | "yes";
	/** Tool names (exact or `*` patterns) that always run. */
	allowTools?: string[];
	/** Bash/powershell commands that start with one of these (after trimming) always run. */
	allowCommandPrefixes?: string[];
}

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

const SHELL_TOOLS = new Set(["bash", "powershell"]);

/**
 * A permission policy as an extension, driven by tool annotations and rules: read-only tools run;
 * destructive or open-world ones ask (`ui.select`: yes / no / always for this tool) when there is a UI
 * and are blocked otherwise, unless an allow rule matches or the policy is in `yes` mode.
 *
 * @example
 * createAgentSession({ cwd, model, extensions: [createPermissionPolicy({ allowCommandPrefixes: ["npm test"] })] });
 */
export function createPermissionPolicy(options: PermissionPolicyOptions = {}): Extension {
	const mode = options.mode ?? "ask";
	const alwaysAllowed = new Set<string>();
	const allowByName = compileNamePatterns(options.allowTools ?? []);
	const prefixes = (options.allowCommandPrefixes ?? []).map((prefix) => prefix.trim()).filter(Boolean);

	const commandAllowed = (event: ToolCallEvent) => {
		if (!SHELL_TOOLS.has(event.toolName)) return false;
		const command = typeof event.input.command === "string" ? event.input.command.trim() : "";
		return prefixes.some((prefix) => command === prefix || command.startsWith(`${prefix} `));
	};

	return (api) => {
		let infoByName = new Map<string, ToolInfo>();
		const lookup = (name: string) => {
			let info = infoByName.get(name);
			if (!info) {
				infoByName = new Map(api.getAllTools().map((tool) => [tool.name, tool]));
				info = infoByName.get(name);
			}
			return info;
		};
		api.on("tool_call", async (event, ctx) => {
			if (mode === "yes") return undefined;
			if (alwaysAllowed.has(event.toolName) || allowByName(event.toolName) || commandAllowed(event)) return undefined;
			if (classifyTool(lookup(event.toolName)?.annotations) === "read-only") return undefined;
			const summary = describeCall(event);
			if (!ctx.hasUI) {
				return {
					block: true,
					reason: `Blocked by the permission policy: ${summary} may change files or run commands, and there is no one to approve it. Re-run with --yes (or an allow rule) to permit it.`,
				};
			}
			const always = `Always allow ${event.toolName}`;
			const answer = await ctx.ui.select(`Allow ${summary}?`, ["Yes", "No", always]);
			if (answer === always) alwaysAllowed.add(event.toolName);
			if (answer === "Yes" || answer === always) return undefined;
			return { block: true, reason: `The user declined ${summary}.` };
		});
	};
}

function describeCall(event: ToolCallEvent): string {
	const command = event.input.command;
	if (typeof command === "string")
		return `${event.toolName} \`${command.length > 120 ? `${command.slice(0, 117)}...` : command}\``;
	const path = event.input.path;
	if (typeof path === "string") return `${event.toolName} on ${path}`;
	return event.toolName;
}
