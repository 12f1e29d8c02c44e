import type { Model } from "@gantry/ai";
import type { AgentSession } from "@gantry/coding-agent";
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

/** The edit distance of two short names, a swap of neighbours counting as one edit (for "did you mean"). */
function distance(a: string, b: string): number {
	const rows = Array.from({ length: a.length + 1 }, (_, i) =>
		Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
	);
	for (let i = 1; i <= a.length; i++) {
		for (let j = 1; j <= b.length; j++) {
			const cost = a[i - 1] === b[j - 1] ? 0 : 1;
			rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
				rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
			}
		}
	}
	return rows[a.length][b.length];
}

function suggestion(name: string, known: readonly string[]): string {
	let best: { name: string; score: number } | undefined;
	for (const candidate of known) {
		const score = distance(name.toLowerCase(), candidate.toLowerCase());
		if (score <= Math.max(1, Math.floor(candidate.length / 3)) && (!best || score < best.score)) {
			best = { name: candidate, score };
		}
	}
	return best ? ` (did you mean ${best.name}?)` : "";
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
