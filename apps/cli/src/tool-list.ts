import { homedir } from "node:os";
import { relative } from "node:path";
import {
	type AgentSession,
	explainToolPermission,
	type PermissionOrigins,
	type PermissionPolicyOptions,
	type RuleSource,
	type ToolPermission,
} from "@gantry/coding-agent";
import type { Theme, ToolAnnotations } from "@gantry/extensions";
import { describeMcpStatus } from "@gantry/mcp";
import { alignedTable } from "./aligned-table.js";
import { mcpServersOf } from "./mcp-servers.js";
import { visibleWidth } from "./tui/ansi.js";

/** One registered tool as `gantry tools --json` prints it. */
export interface ToolListEntry {
	name: string;
	label: string;
	exposure: string;
	/** Declared to the model. */
	active: boolean;
	/** Reachable from other tools (`ctx.executeTool`, codemode). */
	callable: boolean;
	annotations: ToolAnnotations;
	/** `"builtin"`, `"sdk"` or the extension's path. */
	source: string;
	description: string;
	/** The tool's namespace (for MCP tools: the server). */
	namespace?: string;
	/** For MCP tools: the server and its status (`ready (3 tools)`, `failed: …`). */
	mcpServer?: { name: string; status: string };
	/** What the permission policy does with the tool's calls, the rule or mode that decides and its file. */
	permission: ToolPermission;
	/** Every rule that decides this tool's calls or some of them, with the file (or option) it came from. */
	permissionRules: RuleSource[];
}

/**
 * Every registered tool of the session, in registration order, judged under `permissions` (in the
 * session's own mode unless `permissions.mode` says otherwise), with the files `origins` names.
 */
export function listTools(
	session: AgentSession,
	permissions: PermissionPolicyOptions = {},
	origins: PermissionOrigins = {},
): ToolListEntry[] {
	const active = new Set(session.getActiveToolNames());
	const callable = new Set(session.getCallableToolNames());
	const servers = new Map<string, { name: string; status: string }>();
	for (const server of mcpServersOf(session)?.servers() ?? []) {
		for (const tool of server.tools) servers.set(tool, { name: server.name, status: describeMcpStatus(server.status) });
	}
	const options: PermissionPolicyOptions = { mode: () => session.permissions.mode, ...permissions };
	return session.getAllTools().map((tool) => {
		const permission = explainToolPermission(tool, options, origins);
		const decides = new Set([
			permission.decidedBy,
			...permission.conditional.allow,
			...permission.conditional.deny,
			...(permission.conditional.ask ?? []),
		]);
		const entry: ToolListEntry = {
			name: tool.name,
			label: tool.label,
			exposure: tool.exposure,
			active: active.has(tool.name),
			callable: callable.has(tool.name),
			annotations: tool.annotations ?? {},
			source: tool.source,
			description: tool.description,
			permission,
			permissionRules: (origins.ruleSources ?? []).filter((source) => decides.has(source.rule)),
		};
		if (tool.namespace !== undefined) entry.namespace = tool.namespace.name;
		const server = servers.get(tool.name);
		if (server !== undefined) entry.mcpServer = server;
		return entry;
	});
}

/** Annotations as short words: `read-only`, `destructive`, `idempotent`, `open-world`. */
export function describeAnnotations(annotations: ToolAnnotations): string {
	const words: string[] = [];
	if (annotations.readOnlyHint) words.push("read-only");
	if (annotations.destructiveHint) words.push("destructive");
	if (annotations.idempotentHint) words.push("idempotent");
	if (annotations.openWorldHint) words.push("open-world");
	return words.join(", ") || "-";
}

/** A settings file as people read it: `~/…` under the home folder, relative inside the working folder. */
export function shortFileName(file: string, cwd = process.cwd(), home = homedir()): string {
	if (file.startsWith("--") || file.includes(":/")) return file;
	const inside = relative(cwd, file);
	if (inside !== "" && !inside.startsWith("..")) return inside;
	const underHome = relative(home, file);
	return underHome !== "" && !underHome.startsWith("..") ? `~/${underHome}` : file;
}

/**
 * `ask`, `allow (read-only)`, `deny (edit, .gantry/settings.json)`, `allow (acceptEdits mode, --permission-mode)`,
 * with the rules that decide some calls: `+bash(npm test:*)` allows, `-Read(**\/.env)` denies, `?Bash(git push:*)` asks.
 */
export function describePermission(permission: ToolPermission, cwd?: string): string {
	const from = permission.source === undefined ? "" : `, ${shortFileName(permission.source, cwd)}`;
	const decided =
		permission.decision === "ask" && permission.decidedBy === "may change things"
			? "ask"
			: `${permission.decision} (${permission.decidedBy}${from})`;
	const { allow, deny, ask = [] } = permission.conditional;
	const conditional = [
		...allow.map((rule) => `+${rule}`),
		...deny.map((rule) => `-${rule}`),
		...ask.map((rule) => `?${rule}`),
	];
	return [decided, ...conditional].join(" ");
}

const LIST_MARKS = { allow: "+", deny: "-", ask: "?" } as const;

/**
 * Each rule that decides some tool's calls, with the file (or option) it came from:
 * `Rules: -Read(**\/.env) .gantry/settings.json · +Bash(npm test:*) --allow`; where rules come from when none do.
 */
export function ruleOriginsLine(entries: readonly ToolListEntry[]): string {
	const seen = new Set<string>();
	const parts: string[] = [];
	for (const entry of entries) {
		for (const source of entry.permissionRules) {
			const text = `${LIST_MARKS[source.list]}${source.rule} ${shortFileName(source.file)}`;
			if (seen.has(text)) continue;
			seen.add(text);
			parts.push(text);
		}
	}
	if (parts.length === 0) {
		return "Rules: none (they come from ~/.gantry/settings.json, .gantry/settings.json, .gantry/settings.local.json, --allow/--deny)";
	}
	return `Rules: ${parts.join(" · ")}`;
}

/** The tools as an aligned table, with a line that names the three sets. */
export function formatToolTable(entries: readonly ToolListEntry[], theme: Theme): string[] {
	if (entries.length === 0) return [theme.muted("No tools are registered.")];
	const mark = (on: boolean) => (on ? theme.success("yes") : theme.muted("no"));
	const namespaced = entries.some((entry) => entry.namespace !== undefined);
	const header = [
		"TOOL",
		"EXPOSURE",
		"ACTIVE",
		"CALLABLE",
		"ANNOTATIONS",
		"PERMISSION",
		...(namespaced ? ["NAMESPACE"] : []),
		"SOURCE",
	];
	const rows = entries.map((entry) => [
		theme.bold(entry.name),
		entry.exposure,
		mark(entry.active),
		mark(entry.callable),
		describeAnnotations(entry.annotations),
		describePermission(entry.permission),
		...(namespaced ? [entry.namespace ?? "-"] : []),
		theme.muted(entry.mcpServer ? `MCP server ${entry.mcpServer.name}: ${entry.mcpServer.status}` : entry.source),
	]);
	const table = alignedTable(header, rows, visibleWidth);
	return [
		theme.muted(table.header.trimEnd()),
		...table.rows.map((line) => line.trimEnd()),
		theme.muted(
			"PERMISSION: what a call does without further rules, and the rule or mode that decides (+rule allows some calls, -rule denies some, ?rule asks)",
		),
		theme.muted(ruleOriginsLine(entries)),
		theme.muted(
			`${entries.length} registered · ${entries.filter((entry) => entry.active).length} active (declared to the model) · ${entries.filter((entry) => entry.callable).length} callable (by other tools)`,
		),
	];
}
