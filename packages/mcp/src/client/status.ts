/**
 * Where one configured MCP server stands:
 * - `connecting`: started in the background, not answering yet (calls wait for it, bounded);
 * - `ready`: connected, its tools listed;
 * - `failed`: could not start, or exited or broke the protocol later; `stderr` holds the tail of its error output;
 * - `closed`: closed by Gantry (session end), or `disabled` in the config.
 */
export type McpServerStatus =
	| { state: "connecting" }
	| { state: "ready"; toolCount: number }
	| { state: "failed"; error: string; stderr?: string }
	| { state: "closed" };

/** One line for lists: `ready (3 tools)`, `failed: spawn nope ENOENT`. */
export function describeMcpStatus(status: McpServerStatus): string {
	switch (status.state) {
		case "ready":
			return `ready (${status.toolCount} tool${status.toolCount === 1 ? "" : "s"})`;
		case "failed":
			return `failed: ${status.error}`;
		default:
			return status.state;
	}
}
