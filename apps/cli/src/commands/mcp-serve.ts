import { createMcpServer } from "@gantry/mcp";
import type { CliIo } from "../io.js";
import { mcpServersOf } from "../mcp-servers.js";
import { selectModel } from "../model-selection.js";
import { readVersion } from "../package-info.js";
import { openSession } from "../session-factory.js";
import { CLI_DEFAULT_TOOLS } from "../tool-names.js";
import { resolveWorkingFolder } from "../working-folder.js";
import type { McpServeArguments } from "./mcp-args.js";

/**
 * `gantry mcp serve`: the CLI's session (builtins, `-e` extensions, configured MCP servers, `--tools`)
 * served over MCP — stdio until stdin ends, or Streamable HTTP at `/mcp` until SIGINT / SIGTERM. Every
 * call runs through the session's pipeline and permission policy; without `--yes` a tool that needs
 * approval answers with an error result saying so. Needs no API key.
 */
export async function runMcpServe(parsed: McpServeArguments, io: CliIo): Promise<number> {
	const { options } = parsed;
	const cwd = resolveWorkingFolder(options.cwd);
	const { model } = selectModel(options, io.env);
	// The client is another agent, not the model the CLI would pick: it gets the CLI's tools as they are
	// (edit, not the apply_patch a patch-editing default model would get), unless --tools says otherwise.
	const served = { ...options, tools: options.tools ?? ["*", ...CLI_DEFAULT_TOOLS] };
	const session = await openSession({ options: served, cwd, model });
	// Tools of configured MCP servers are served too, so they are given the time to connect.
	await mcpServersOf(session)?.settled(10_000);
	const server = createMcpServer({ tools: session, name: "gantry", version: readVersion() });
	try {
		if (parsed.http === undefined) {
			const ended = new Promise<void>((resolve) => {
				io.stdin.once("end", resolve);
				io.stdin.once("close", resolve);
			});
			await server.listenStdio();
			await ended;
		} else {
			const { host, port } = parsed.http;
			const listener = await server.listenHttp(
				parsed.token === undefined ? { host, port } : { host, port, token: parsed.token },
			);
			io.stderr.write(`gantry: serving MCP at ${listener.url} (Ctrl-C stops)\n`);
			// A generated token is shown once, here; clients send it as "Authorization: Bearer <token>".
			if (listener.token !== undefined && parsed.token === undefined)
				io.stderr.write(
					`gantry: ${host} is reachable from other machines, so clients must send "Authorization: Bearer ${listener.token}" (pass --token to choose it)\n`,
				);
			await new Promise<void>((resolve) => {
				process.once("SIGINT", resolve);
				process.once("SIGTERM", resolve);
			});
		}
		return 0;
	} finally {
		await server.close();
		await session.dispose();
	}
}
