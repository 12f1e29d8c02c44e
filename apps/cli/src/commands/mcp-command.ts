import type { CliIo } from "../io.js";
import { parseMcpArguments } from "./mcp-args.js";

const MCP_HELP = `Usage
  gantry mcp serve [--http HOST:PORT [--token TOKEN]] [--tools a,b] [--yes] [-e ext] [--cwd dir]
                                   serve Gantry's tools over MCP (stdio by default; HTTP at /mcp).
                                   HTTP on a loopback address answers only to its own Host and Origin;
                                   any other address needs a bearer token (--token, else one is made
                                   and printed once on stderr)
  gantry mcp list [--json]         the configured MCP servers, their status and tool counts
  gantry mcp call (--url URL | --command "CMD ARGS…") [TOOL [JSON-ARGS]] [--header "K: V"] [--timeout MS]
                                   call one tool of a server, print the MCP result as JSON (exit 1 on isError);
                                   without TOOL, list the server's tools
  gantry mcp add NAME [--scope project|user] [--env K=V]… [--] CMD [ARGS…]
                                   add a command (stdio) server to .mcp.json (project, the default) or
                                   ~/.gantry/mcp.json (user), as claude mcp add does; options go before CMD
  gantry mcp add NAME --transport http URL [--header "K: V"]… [--scope project|user]
                                   add an HTTP server (--transport sse for an SSE-only one)
  gantry mcp remove NAME [--scope project|user]
                                   remove a server (without --scope: from whichever file has it)

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
		case "add": {
			const { runMcpAdd } = await import("./mcp-add.js");
			return runMcpAdd(parsed, io);
		}
		case "remove": {
			const { runMcpRemove } = await import("./mcp-add.js");
			return runMcpRemove(parsed, io);
		}
	}
}
