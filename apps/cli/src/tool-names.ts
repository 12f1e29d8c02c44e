import type { Model } from "@gantry/ai";
import { type AgentSession, closestName } from "@gantry/coding-agent";
import { createAllToolDefinitions } from "@gantry/tools";
import { usageError } from "./errors.js";

/** Builtins the CLI declares to the model unless `--tools` says otherwise (pinned in the API). */
export const CLI_DEFAULT_TOOLS = ["read", "bash", "edit", "write", "grep", "find", "ls"] as const;

/**
 * The CLI's default builtins for `model`: `CLI_DEFAULT_TOOLS`, with `apply_patch` in the place of `edit`
 * for a model that edits with patches (its catalogue entry's `editFormat`).
 */
export function cliDefaultTools(model: Model): string[] {
	const patches = model.editFormat === "apply_patch";
	return CLI_DEFAULT_TOOLS.map((name) => (patches && name === "edit" ? "apply_patch" : name));
}

/** The session's own tools, registered besides the `@gantry/tools` builtins. */
const SESSION_TOOLS = ["codemode", "tool_search"];

/** MCP tools register once their server answers, which may be after the check below. */
const LATE_PREFIX = "mcp__";

function suggestion(name: string, known: readonly string[]): string {
	const best = closestName(name, known, (candidate) => Math.max(1, Math.floor(candidate.length / 3)));
	return best ? ` (did you mean ${best}?)` : "";
}

/**
 * Every tool name a run could have: the builtins, the session's tools and whatever extensions and the
 * SDK registered (whether or not the allowlist let them in).
 */
export function knownToolNames(session: AgentSession, cwd: string): string[] {
	const names = new Set<string>([...Object.keys(createAllToolDefinitions(cwd)), ...SESSION_TOOLS]);
	for (const definition of session.runner.getAllRegisteredTools()) names.add(definition.name);
	for (const tool of session.getAllTools()) names.add(tool.name);
	return [...names];
}

/**
 * Throws a usage error (exit code 2) naming each exact name in `--tools` or `--exclude-tools` that no
 * tool has, e.g. `--tools raed,bahs`: without it a typo silently leaves the model with fewer tools.
 * `*` patterns and `mcp__…` names (registered later, when their server answers) are not checked.
 */
export function checkToolNames(
	session: AgentSession,
	cwd: string,
	options: { tools?: string[]; excludeTools?: string[] },
): void {
	const known = knownToolNames(session, cwd);
	const problems: string[] = [];
	for (const [option, names] of [
		["--tools", options.tools],
		["--exclude-tools", options.excludeTools],
	] as const) {
		const unknown = (names ?? []).filter(
			(name) => !name.includes("*") && !name.startsWith(LATE_PREFIX) && !known.includes(name),
		);
		if (unknown.length === 0) continue;
		const listed = unknown.map((name) => `"${name}"${suggestion(name, known)}`).join(", ");
		problems.push(
			`${option} names ${unknown.length === 1 ? "a tool that does not exist" : "tools that do not exist"}: ${listed}`,
		);
	}
	if (problems.length === 0) return;
	throw usageError(`${problems.join("; ")}. Known tools: ${known.join(", ")}`);
}
