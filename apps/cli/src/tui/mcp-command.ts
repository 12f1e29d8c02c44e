import type { AgentSession, PermissionPolicyOptions } from "@gantry/coding-agent";
import type { Theme } from "@gantry/extensions";
import { describeMcpStatus } from "@gantry/mcp";
import { mcpServersOf } from "../mcp-servers.js";
import { formatToolTable, listTools } from "../tool-list.js";

/**
 * `/mcp`: each configured MCP server with its transport and status (connecting, ready with its tool
 * count, failed with the reason, closed), then the table of its tools as `/tools` draws them (exposure,
 * active, callable, permission), so a deferred tool's state can be seen before `tool_search` loads it.
 */
export function mcpCommand(session: AgentSession, theme: Theme, permissions?: PermissionPolicyOptions): string[] {
	const servers = mcpServersOf(session)?.servers() ?? [];
	if (servers.length === 0) {
		return [theme.muted("No MCP servers are configured (.mcp.json in the project, or ~/.gantry/mcp.json).")];
	}
	const entries = listTools(session, permissions);
	const lines: string[] = [];
	for (const server of servers) {
		lines.push(`${theme.bold(server.name)} (${server.transport}): ${describeMcpStatus(server.status)}`);
		const names = new Set(server.tools);
		const own = entries.filter((entry) => names.has(entry.name));
		if (own.length > 0) lines.push(...formatToolTable(own, theme).map((line) => `  ${line}`));
	}
	return lines;
}
