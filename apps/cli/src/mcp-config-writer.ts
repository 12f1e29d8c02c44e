import { homedir } from "node:os";
import { join } from "node:path";
import { parseMcpConfig } from "@gantry/mcp";
import { CliError } from "./errors.js";
import { indentationOf, readExisting, writeAtomically } from "./settings-writer.js";

/** Where `gantry mcp add` writes: the project's `.mcp.json` (shared with the repository) or yours. */
export type McpScope = "project" | "user";

/** The file of a scope: `<cwd>/.mcp.json` or `~/.gantry/mcp.json`. */
export function mcpConfigPath(scope: McpScope, cwd: string, home: string = homedir()): string {
	return scope === "project" ? join(cwd, ".mcp.json") : join(home, ".gantry", "mcp.json");
}

/** A config file opened for a change: its parsed object, its `mcpServers`, and how to write it back. */
interface OpenedConfig {
	object: Record<string, unknown>;
	servers: Record<string, unknown>;
	/** Writes `object` back, atomically, in the file's own indentation. */
	save(): Promise<void>;
}

function unchanged(path: string, why: string): CliError {
	return new CliError("session_failed", `${path} was not changed: ${why}.`);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/** Reads the file (missing: an empty config) and checks its shape; a file it cannot edit stays as it is. */
async function openConfig(path: string): Promise<OpenedConfig> {
	let existing: Awaited<ReturnType<typeof readExisting>>;
	try {
		existing = await readExisting(path);
	} catch (error) {
		throw unchanged(path, `it cannot be read (${(error as Error).message})`);
	}
	let object: unknown = {};
	if (existing !== undefined && existing.text.trim() !== "") {
		try {
			object = JSON.parse(existing.text);
		} catch (error) {
			throw unchanged(path, `it is not valid JSON (${(error as Error).message}); fix it first`);
		}
	}
	if (!isObject(object)) throw unchanged(path, 'it does not hold a JSON object like { "mcpServers": {} }');
	const servers = object.mcpServers ?? {};
	if (!isObject(servers)) throw unchanged(path, 'its "mcpServers" is not an object of servers by name');
	object.mcpServers = servers;
	const indent = existing === undefined ? "\t" : indentationOf(existing.text);
	const target = existing?.file ?? path;
	return {
		object,
		servers,
		save: async () => {
			try {
				await writeAtomically(target, `${JSON.stringify(object, null, indent)}\n`, existing?.mode ?? 0o644);
			} catch (error) {
				throw unchanged(path, `it cannot be written (${(error as Error).message})`);
			}
		},
	};
}

/**
 * Adds the server `name` to the file at `path` (created with its folder when missing): every other key
 * and server stays, in order, and the file keeps its indentation; written through a temp file renamed
 * over it. A name the file already has is an error (remove it first), and so is an entry `@gantry/mcp`
 * would refuse; both leave the file as it was.
 */
export async function addMcpServer(path: string, name: string, entry: Record<string, unknown>): Promise<void> {
	const config = await openConfig(path);
	if (Object.hasOwn(config.servers, name))
		throw new CliError(
			"session_failed",
			`${path} already has an MCP server named "${name}": remove it first (gantry mcp remove ${name}), or pick another name.`,
		);
	// Judged as @gantry/mcp will read it (values with ${VAR}s are judged once they expand, when it is read).
	if (!JSON.stringify(entry).includes("${")) {
		try {
			parseMcpConfig({ mcpServers: { [name]: entry } }, path);
		} catch (error) {
			throw unchanged(path, (error as Error).message);
		}
	}
	config.servers[name] = entry;
	await config.save();
}

/** Whether the file at `path` configures a server named `name` (a missing or unreadable file: false). */
export async function hasMcpServer(path: string, name: string): Promise<boolean> {
	try {
		return Object.hasOwn((await openConfig(path)).servers, name);
	} catch {
		return false;
	}
}

/** Removes the server `name` from the file at `path`, keeping the rest as it is. False when it has none. */
export async function removeMcpServer(path: string, name: string): Promise<boolean> {
	const config = await openConfig(path);
	if (!Object.hasOwn(config.servers, name)) return false;
	delete config.servers[name];
	await config.save();
	return true;
}
