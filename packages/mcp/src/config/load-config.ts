import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { errorText } from "@gantry/ai";
import { isProjectTrusted } from "@gantry/coding-agent";
import { GantryMcpError } from "../errors.js";
import { type ExpansionRules, expandDeep } from "./expand-variables.js";
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
	/**
	 * Whether the project folder is trusted, which decides whether `${VAR}` in its `.mcp.json` expands at
	 * all. Default: `isProjectTrusted(cwd, home)` (`~/.gantry/trust.json`).
	 */
	trusted?: boolean;
}

/**
 * Reads `~/.gantry/mcp.json` and `<cwd>/.mcp.json` (either may be missing), expands `${VAR}` in their
 * values and merges them by server name, the project's entry replacing the user's (with `project: false`
 * only the user's file is read). The user's file expands any variable, as Claude Code does. A project's
 * file is somebody else's: it expands only in a trusted folder, and only the variables a server names in
 * its own `env` block (`"env": { "TOKEN": "${TOKEN}" }`), so its URL, headers and arguments cannot carry
 * your other secrets (`${OPENAI_API_KEY}` in a hostile URL); another variable takes its `:-fallback` or
 * is an error saying why. Rejects with a `GantryMcpError` naming the file for unreadable or invalid JSON,
 * a bad entry, or a variable that is unset or may not expand.
 */
export async function loadMcpConfig(cwd: string, options: LoadMcpConfigOptions = {}): Promise<McpConfig> {
	const env = options.env ?? process.env;
	const home = options.home ?? homedir();
	const user = scoped(await readConfigFile(join(home, ".gantry", "mcp.json"), env, () => undefined), "user");
	if (options.project === false) return user;
	const path = join(cwd, ".mcp.json");
	const trusted = options.trusted ?? (await isProjectTrusted(cwd, options.home));
	const project = scoped(
		await readConfigFile(path, env, (entry) => projectRules(path, cwd, entry, trusted)),
		"project",
	);
	return { mcpServers: { ...user.mcpServers, ...project.mcpServers } };
}

/** Every entry marked with the file it came from, whatever the file says. */
function scoped(config: McpConfig, scope: "user" | "project"): McpConfig {
	const mcpServers: McpConfig["mcpServers"] = {};
	for (const [name, settings] of Object.entries(config.mcpServers)) mcpServers[name] = { ...settings, scope };
	return { mcpServers };
}

/** What a project server's values may expand: nothing before trust, then the names its `env` block gives. */
function projectRules(path: string, cwd: string, entry: unknown, trusted: boolean): ExpansionRules {
	const env = (entry as { env?: unknown } | null)?.env;
	const named = trusted && typeof env === "object" && env !== null && !Array.isArray(env);
	return {
		allowed: new Set(named ? Object.keys(env) : []),
		refusal: (name) =>
			trusted
				? `which its "env" block does not name: a project's .mcp.json expands only the variables a server names there (add "env": { "${name}": "\${${name}}" } to it), so its URL, headers and arguments cannot carry your other secrets. Or configure the server in ~/.gantry/mcp.json, which expands any variable.`
				: `but ${cwd} is not trusted, so ${path} gets no variables from your environment. Trust the folder (\`gantry trust\`, or trustProject in the SDK), or write \${${name}:-value}.`,
	};
}

async function readConfigFile(
	path: string,
	env: Readonly<Record<string, string | undefined>>,
	rulesFor: (entry: unknown) => ExpansionRules | undefined,
): Promise<McpConfig> {
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return { mcpServers: {} };
		throw new GantryMcpError("invalid_config", `Cannot read ${path}: ${errorText(error)}`, { cause: error });
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new GantryMcpError(
			"invalid_config",
			`${path} is not valid JSON: ${errorText(error)}. Fix the file or remove it.`,
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
			expanded[name] = expandDeep(entry, env, `${path}: server "${name}"`, rulesFor(entry));
		parsed = { ...(parsed as object), mcpServers: expanded };
	}
	const { mcpServers } = parseMcpConfig(parsed, path);
	return { mcpServers };
}
