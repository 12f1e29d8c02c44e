import type { CliIo } from "../io.js";
import { parseMcpArguments } from "./mcp-args.js";

const MCP_HELP = `Usage
  gantry mcp serve [--http HOST:PORT] [--tools a,b] [--yes] [-e ext] [--cwd dir]
                                   serve Gantry's tools over MCP (stdio by default; HTTP at /mcp)
  gantry mcp list [--json]         the configured MCP servers, their status and tool counts
  gantry mcp call (--url URL | --command "CMD ARGS…") [TOOL [JSON-ARGS]] [--header "K: V"] [--timeout MS]
                                   call one tool of a server, print the MCP result as JSON (exit 1 on isError);
                                   without TOOL, list the server's tools

Servers are configured in .mcp.json (the project) and ~/.gantry/mcp.json (yours), e.g.
  { "mcpServers": { "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] } } }
`;

/** `gantry mcp …`: resolves to the exit code; usage errors are thrown as `CliError`s. */
export async function runMcpCommand(argv: readonly string[], io: CliIo): Promise<number> {
	const parsed = parseMcpArguments(argv);
	switch (parsed.subcommand) {
		case "help":
			io.stdout.write(MCP_HELP);
			return 0;
		case "serve": {
			const { runMcpServe } = await import("./mcp-serve.js");
			return runMcpServe(parsed, io);
		}
		case "list": {
			const { runMcpList } = await import("./mcp-list.js");
			return runMcpList(parsed, io);
		}
		case "call": {
			const { runMcpCall } = await import("./mcp-call.js");
			return runMcpCall(parsed, io);
		}
	}
}
