import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { errorMessage, GantryMcpError } from "../errors.js";
import { expandDeep } from "./expand-variables.js";
import { parseMcpConfig } from "./parse-config.js";
import type { McpConfig } from "./types.js";

/** Options of `loadMcpConfig`, for tests and embedders. */
export interface LoadMcpConfigOptions {
	/** Where `.gantry/mcp.json` is looked up. Default: the user's home folder. */
	home?: string;
	/** Where `${VAR}` values come from. Default: `process.env`. */
	env?: Readonly<Record<string, string | undefined>>;
	/**
	 * Whether `<cwd>/.mcp.json` is read. Default: true. The CLI passes false over `--ssh`, where the
	 * project's file is on the other host.
	 */
	project?: boolean;
}

/**
 * Reads `~/.gantry/mcp.json` and `<cwd>/.mcp.json` (either may be missing), expands `${VAR}` in their
 * values and merges them by server name, the project's entry replacing the user's (with `project: false`
 * only the user's file is read). Rejects with a
 * `GantryMcpError` naming the file for unreadable or invalid JSON, a bad entry, or an unset variable.
 */
export async function loadMcpConfig(cwd: string, options: LoadMcpConfigOptions = {}): Promise<McpConfig> {
	const env = options.env ?? process.env;
	const user = await readConfigFile(join(options.home ?? homedir(), ".gantry", "mcp.json"), env);
	if (options.project === false) return { mcpServers: { ...user.mcpServers } };
	const project = await readConfigFile(join(cwd, ".mcp.json"), env);
	return { mcpServers: { ...user.mcpServers, ...project.mcpServers } };
}

async function readConfigFile(path: string, env: Readonly<Record<string, string | undefined>>): Promise<McpConfig> {
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { mcpServers: {} };
		throw new GantryMcpError("invalid_config", `Cannot read ${path}: ${errorMessage(error)}`, { cause: error });
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new GantryMcpError(
			"invalid_config",
			`${path} is not valid JSON: ${errorMessage(error)}. Fix the file or remove it.`,
			{
				cause: error,
			},
		);
	}
	// Values are expanded before they are checked, so `"url": "${BASE}/mcp"` is judged as the URL it becomes.
	const servers = (parsed as { mcpServers?: unknown } | null)?.mcpServers;
	if (typeof servers === "object" && servers !== null && !Array.isArray(servers)) {
		const expanded: Record<string, unknown> = {};
		for (const [name, entry] of Object.entries(servers))
			expanded[name] = expandDeep(entry, env, `${path}: server "${name}"`);
		parsed = { ...(parsed as object), mcpServers: expanded };
	}
	const { mcpServers } = parseMcpConfig(parsed, path);
	return { mcpServers };
}
