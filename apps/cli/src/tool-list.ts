import {
	type AgentSession,
	explainToolPermission,
	type PermissionPolicyOptions,
	type ToolPermission,
} from "@gantry/coding-agent";
import type { Theme, ToolAnnotations } from "@gantry/extensions";
import { describeMcpStatus } from "@gantry/mcp";
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
	/** What the permission policy does with the tool's calls, and the rule that decides. */
	permission: ToolPermission;
}

/** Every registered tool of the session, in registration order, judged under `permissions`. */
export function listTools(session: AgentSession, permissions: PermissionPolicyOptions = {}): ToolListEntry[] {
	const active = new Set(session.getActiveToolNames());
	const callable = new Set(session.getCallableToolNames());
	const servers = new Map<string, { name: string; status: string }>();
	for (const server of mcpServersOf(session)?.servers() ?? []) {
		for (const tool of server.tools) servers.set(tool, { name: server.name, status: describeMcpStatus(server.status) });
	}
	return session.getAllTools().map((tool) => {
		const entry: ToolListEntry = {
			name: tool.name,
			label: tool.label,
			exposure: tool.exposure,
			active: active.has(tool.name),
			callable: callable.has(tool.name),
			annotations: tool.annotations ?? {},
			source: tool.source,
			description: tool.description,
			permission: explainToolPermission(tool, permissions),
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

/** `ask`, `allow (read-only)`, `deny (edit)`, with the rules that decide some calls: `+ bash(npm test:*)`. */
export function describePermission(permission: ToolPermission): string {
	const decided = permission.decision === "ask" ? "ask" : `${permission.decision} (${permission.decidedBy})`;
	const { allow, deny } = permission.conditional;
	const conditional = [...allow.map((rule) => `+${rule}`), ...deny.map((rule) => `-${rule}`)];
	return [decided, ...conditional].join(" ");
}

function pad(text: string, width: number): string {
	return text + " ".repeat(Math.max(0, width - visibleWidth(text)));
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
	const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => visibleWidth(row[column]))));
	const line = (cells: string[]) =>
		cells
			.map((cell, column) => (column === cells.length - 1 ? cell : pad(cell, widths[column])))
			.join("  ")
			.trimEnd();
	return [
		theme.muted(line(header)),
		...rows.map(line),
		theme.muted("PERMISSION: what a call does without further rules (+rule allows some calls, -rule denies some)"),
		theme.muted("Rules: ~/.gantry/settings.json, .gantry/settings.json, .gantry/settings.local.json, --allow/--deny"),
		theme.muted(
			`${entries.length} registered · ${entries.filter((entry) => entry.active).length} active (declared to the model) · ${entries.filter((entry) => entry.callable).length} callable (by other tools)`,
		),
	];
}
