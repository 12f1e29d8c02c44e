import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunPermissions, SettingsPlace } from "./permission-settings.js";

/** One MCP server a project's `.mcp.json` configures, as a person should see it before trusting it. */
export interface ProjectServer {
	name: string;
	/** The command line it would start (arguments as written, no `${VAR}` expanded), or its URL. */
	runs: string;
}

/** What an untrusted folder asks for: the settings it was not given, and the servers that were not started. */
export interface ProjectRequests {
	/** The folder's real path as the trust file would keep it. */
	cwd: string;
	/** `loadSettings`'s `withheld`: each a file and what it asked for. */
	settings: string[];
	servers: ProjectServer[];
	/** Why `.mcp.json` could not be listed, when it exists but cannot be read. */
	serversProblem?: string;
}

const MAX_SHOWN = 160;
const shorten = (text: string) => (text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text);

/**
 * The servers of `<cwd>/.mcp.json`, read only to show them (never started, nothing expanded). A remote
 * project's `.mcp.json` is never used (see `noteRemoteMcpConfig`), so over `--ssh` there are none.
 */
export async function projectServers(place: SettingsPlace): Promise<{ servers: ProjectServer[]; problem?: string }> {
	if (place.workspace !== undefined && !place.workspace.isLocal) return { servers: [] };
	let text: string;
	try {
		text = await readFile(join(place.cwd, ".mcp.json"), "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" || code === "ENOTDIR") return { servers: [] };
		return { servers: [], problem: `.mcp.json cannot be read (${(error as Error).message})` };
	}
	let config: unknown;
	try {
		config = JSON.parse(text);
	} catch (error) {
		return { servers: [], problem: `.mcp.json is not valid JSON (${(error as Error).message})` };
	}
	const entries = (config as { mcpServers?: unknown } | null)?.mcpServers;
	if (typeof entries !== "object" || entries === null || Array.isArray(entries)) return { servers: [] };
	const servers = Object.entries(entries as Record<string, unknown>).map(([name, entry]) => {
		const server = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
		const args = Array.isArray(server.args) ? server.args.map((arg) => JSON.stringify(String(arg))) : [];
		const runs =
			typeof server.command === "string"
				? [JSON.stringify(server.command), ...args].join(" ")
				: typeof server.url === "string"
					? server.url
					: "(no command or url)";
		return { name, runs: shorten(runs) };
	});
	return { servers };
}

/** What the folder asks for and does not get until it is trusted; undefined when it is trusted or asks for nothing. */
export async function projectRequests(run: RunPermissions, place: SettingsPlace): Promise<ProjectRequests | undefined> {
	if (run.loaded.trusted) return undefined;
	const settings = run.loaded.withheld ?? [];
	const { servers, problem } = await projectServers(place);
	if (settings.length === 0 && servers.length === 0 && problem === undefined) return undefined;
	return { cwd: place.cwd, settings, servers, ...(problem === undefined ? {} : { serversProblem: problem }) };
}

/** The lines that say what the folder asks for (for the trust question and `gantry trust`). */
export function describeRequests(requests: ProjectRequests): string[] {
	return [
		...requests.settings.map((item) => `  settings: ${item}`),
		...requests.servers.map((server) => `  MCP server ${server.name}: runs ${server.runs}`),
		...(requests.serversProblem === undefined ? [] : [`  ${requests.serversProblem}`]),
	];
}

/**
 * The one line print and JSON mode give for an untrusted folder that asks for something: what was not
 * applied and how to trust it. Undefined when there is nothing to say.
 */
export async function untrustedNotice(run: RunPermissions, place: SettingsPlace): Promise<string | undefined> {
	const requests = await projectRequests(run, place);
	if (requests === undefined) return undefined;
	const parts: string[] = [];
	if (requests.settings.length > 0) {
		const items = requests.settings.map((item) => item.slice(item.lastIndexOf(".json: ") + 7));
		parts.push(`its settings (${shorten(items.join("; "))})`);
	}
	if (requests.servers.length > 0) {
		parts.push(`its .mcp.json servers (${shorten(requests.servers.map((server) => server.name).join(", "))})`);
	}
	if (requests.serversProblem !== undefined)
		parts.push(`its .mcp.json (which ${requests.serversProblem.replace(/^\.mcp\.json /, "")})`);
	return `${place.cwd} is not trusted, so ${parts.join(" and ")} were not used (its deny rules apply). To use them, run \`gantry trust\` there or pass --trust.`;
}
