import { describeMcpStatus, McpServerConnection, type McpServerSettings, type McpTool } from "@gantry/mcp";
import type { CliIo } from "../io.js";
import type { McpCallArguments } from "./mcp-args.js";

/**
 * `gantry mcp call`: connects to one server, calls one tool, prints the MCP result as JSON on stdout.
 * Without a tool name it lists the server's tools instead (name and the first line of each description).
 * Exit 0 on success, 1 when the result is `isError`, the server cannot be reached or the call fails.
 */
export async function runMcpCall(parsed: McpCallArguments, io: CliIo): Promise<number> {
	const settings = (
		parsed.url !== undefined
			? { type: "http", url: parsed.url, headers: parsed.headers }
			: { command: parsed.command?.[0] ?? "", args: parsed.command?.slice(1) ?? [] }
	) as McpServerSettings;
	if (parsed.timeoutMs !== undefined) settings.timeoutMs = parsed.timeoutMs;
	const connection = new McpServerConnection("server", settings, { cwd: process.cwd() });
	try {
		const status = await connection.settled();
		if (status.state !== "ready") {
			const stderr = status.state === "failed" && status.stderr ? `\n${status.stderr}` : "";
			io.stderr.write(`gantry: the MCP server is not available: ${describeMcpStatus(status)}${stderr}\n`);
			return 1;
		}
		if (parsed.tool === undefined) {
			io.stdout.write(formatTools(connection.tools));
			return 0;
		}
		try {
			const result = await connection.callTool(parsed.tool, parsed.args);
			io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
			return result.isError === true ? 1 : 0;
		} catch (error) {
			io.stderr.write(`gantry: ${connection.describeCallError(parsed.tool, error)}\n`);
			return 1;
		}
	} finally {
		await connection.close();
	}
}

/** One line per tool: its name, padded, then the first line of its description; a hint how to call one. */
function formatTools(tools: readonly McpTool[]): string {
	if (tools.length === 0) return "The server lists no tools.\n";
	const width = Math.min(32, Math.max(...tools.map((tool) => tool.name.length)));
	const lines = tools.map((tool) => {
		const first = (tool.description ?? "").trim().split("\n")[0]?.trim() ?? "";
		return first === "" ? tool.name : `${tool.name.padEnd(width)}  ${first}`;
	});
	lines.push(
		"",
		`${tools.length} tool${tools.length === 1 ? "" : "s"}; call one with: gantry mcp call … TOOL '{"arg":"value"}'`,
	);
	return `${lines.join("\n")}\n`;
}
