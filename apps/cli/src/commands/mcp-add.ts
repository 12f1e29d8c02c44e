import { isProjectTrusted } from "@gantry/coding-agent";
import { CliError } from "../errors.js";
import type { CliIo } from "../io.js";
import { addMcpServer, hasMcpServer, mcpConfigPath, removeMcpServer } from "../mcp-config-writer.js";
import { resolveWorkingFolder } from "../working-folder.js";
import type { McpAddArguments, McpRemoveArguments } from "./mcp-add-args.js";

/** What the entry starts or reaches, for the line that confirms it. */
function describeEntry(entry: Record<string, unknown>): string {
	if (typeof entry.url === "string") return `${entry.type}: ${entry.url}`;
	const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
	return `stdio: ${[String(entry.command), ...args].join(" ")}`;
}

/**
 * `gantry mcp add`: writes the server into `.mcp.json` (`--scope project`, the default) or
 * `~/.gantry/mcp.json` (`--scope user`), as `claude mcp add` does, and says where. Exit 0, or 1 when the
 * file cannot take it (a name it has, a file that is not a JSON object); the file is then unchanged.
 */
export async function runMcpAdd(parsed: McpAddArguments, io: CliIo): Promise<number> {
	const cwd = resolveWorkingFolder(parsed.cwd);
	const path = mcpConfigPath(parsed.scope, cwd);
	await addMcpServer(path, parsed.name, parsed.entry);
	const lines = [`Added MCP server "${parsed.name}" (${describeEntry(parsed.entry)}) to ${path}.`];
	if (parsed.scope === "project" && !(await isProjectTrusted(cwd)))
		lines.push(
			"This folder is not trusted yet, so its .mcp.json servers do not start: run `gantry trust` here when you trust them.",
		);
	lines.push("`gantry mcp list` connects to it and lists its tools.");
	io.stdout.write(`${lines.join("\n")}\n`);
	return 0;
}

/**
 * `gantry mcp remove`: takes the server out of the file of `--scope`, or, without one, of whichever of
 * `.mcp.json` and `~/.gantry/mcp.json` has it (both: an error asking which). Exit 1 when none has it.
 */
export async function runMcpRemove(parsed: McpRemoveArguments, io: CliIo): Promise<number> {
	const cwd = resolveWorkingFolder(parsed.cwd);
	const project = mcpConfigPath("project", cwd);
	const user = mcpConfigPath("user", cwd);
	let path: string;
	if (parsed.scope !== undefined) path = parsed.scope === "project" ? project : user;
	else {
		const found = [project, user];
		const holders: string[] = [];
		for (const candidate of found) if (await hasMcpServer(candidate, parsed.name)) holders.push(candidate);
		if (holders.length > 1)
			throw new CliError(
				"session_failed",
				`Both ${project} and ${user} have an MCP server named "${parsed.name}": say which with --scope project or --scope user.`,
			);
		path = holders[0] ?? project;
		if (holders.length === 0)
			throw new CliError("session_failed", `No MCP server named "${parsed.name}" in ${project} or ${user}.`);
	}
	if (!(await removeMcpServer(path, parsed.name)))
		throw new CliError("session_failed", `${path} has no MCP server named "${parsed.name}".`);
	io.stdout.write(`Removed MCP server "${parsed.name}" from ${path}.\n`);
	return 0;
}
