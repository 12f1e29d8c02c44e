import { errorText } from "@gantry/ai";
import { isProjectTrusted } from "@gantry/coding-agent";
import { describeMcpStatus, loadMcpConfig, McpServerConnection, type McpServerStatus } from "@gantry/mcp";
import { CliError } from "../errors.js";
import type { CliIo } from "../io.js";
import { projectServers } from "../project-requests.js";
import { themeFor } from "../tui/theme.js";
import { resolveWorkingFolder } from "../working-folder.js";
import type { McpListArguments } from "./mcp-args.js";

/** How long `gantry mcp list` waits for a server to connect. */
const LIST_WAIT_MS = 15_000;

/** One server as `gantry mcp list --json` prints it. */
export interface McpListEntry {
	name: string;
	transport: "stdio" | "http";
	/** The command line or the URL. */
	target: string;
	status: McpServerStatus;
	tools: string[];
}

/**
 * `gantry mcp list`: connects to every configured server (in parallel), prints status and tools, closes
 * them. A folder that is not trusted never has its `.mcp.json` servers started here; a line on stderr
 * names them and says how to trust the folder.
 */
export async function runMcpList(parsed: McpListArguments, io: CliIo): Promise<number> {
	const cwd = resolveWorkingFolder(parsed.cwd);
	let config: Awaited<ReturnType<typeof loadMcpConfig>>;
	try {
		const trusted = await isProjectTrusted(cwd);
		if (!trusted) {
			const { servers } = await projectServers({ cwd });
			if (servers.length > 0) {
				const names = servers.map((server) => server.name).join(", ");
				io.stderr.write(
					`gantry: ${cwd} is not trusted, so the servers of its .mcp.json (${names}) were not started. To use them, run \`gantry trust\` there.\n`,
				);
			}
		}
		config = await loadMcpConfig(cwd, { project: trusted, trusted });
	} catch (error) {
		throw new CliError("session_failed", errorText(error), { cause: error });
	}
	const connections = Object.entries(config.mcpServers).map(
		([name, settings]) => new McpServerConnection(name, settings, { cwd }),
	);
	try {
		await Promise.all(
			connections.map((connection) => connection.settled(Math.min(connection.timeoutMs, LIST_WAIT_MS))),
		);
		const entries: McpListEntry[] = connections.map((connection) => {
			const settings = connection.settings;
			const stdio = "command" in settings;
			return {
				name: connection.name,
				transport: stdio ? "stdio" : "http",
				target: stdio ? [settings.command, ...(settings.args ?? [])].join(" ") : settings.url,
				status: settings.disabled ? { state: "closed" } : connection.status,
				tools: connection.tools.map((tool) => tool.name),
			};
		});
		if (parsed.json) io.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
		else io.stdout.write(`${formatList(entries, io).join("\n")}\n`);
		return 0;
	} finally {
		await Promise.all(connections.map((connection) => connection.close()));
	}
}

function formatList(entries: readonly McpListEntry[], io: CliIo): string[] {
	const theme = themeFor(io.stdout);
	if (entries.length === 0)
		return [theme.muted("No MCP servers are configured (.mcp.json in the project, ~/.gantry/mcp.json for you).")];
	return entries.flatMap((entry) => {
		const state = entry.status.state;
		const status = describeMcpStatus(entry.status);
		const painted =
			state === "ready" ? theme.success(status) : state === "failed" ? theme.error(status) : theme.muted(status);
		const lines = [`${theme.bold(entry.name)}  ${entry.transport}  ${painted}`, theme.muted(`  ${entry.target}`)];
		if (entry.status.state === "failed" && entry.status.stderr)
			lines.push(
				...entry.status.stderr
					.split("\n")
					.slice(-5)
					.map((line) => theme.muted(`  | ${line}`)),
			);
		if (entry.tools.length > 0) lines.push(`  tools: ${entry.tools.join(", ")}`);
		return lines;
	});
}
