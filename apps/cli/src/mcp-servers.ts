import { posix } from "node:path";
import { errorText, withoutUndefined } from "@gantry/ai";
import type { AgentSession } from "@gantry/coding-agent";
import { createMcpExtension, loadMcpConfig, type McpExtension, type McpServerStatus } from "@gantry/mcp";
import type { Workspace } from "@gantry/tools";
import { CliError } from "./errors.js";

/** How long the first prompt waits, at most, for MCP servers that are still connecting. */
export const MCP_FIRST_PROMPT_WAIT_MS = 10_000;

const bySession = new WeakMap<AgentSession, McpExtension>();

/** Options of `loadMcpServers`. */
export interface LoadMcpServersOptions {
	/** Where `.gantry/mcp.json` is looked up. Default: the user's home folder. */
	home?: string;
	/** Whether `<cwd>/.mcp.json` is read. Default: true; false over `--ssh`. */
	project?: boolean;
	/** Whether the folder is trusted (its `.mcp.json` expands the variables its servers name). Default: looked up. */
	trusted?: boolean;
	/** Gets one line for each server that fails (could not start, or stopped later). Default: nowhere. */
	onFailure?: (message: string) => void;
}

const MAX_REASON = 300;

/** One line of at most `MAX_REASON` characters. */
function oneLine(text: string): string {
	const flat = text.replace(/\s*\n\s*/g, " ").trim();
	return flat.length > MAX_REASON ? `${flat.slice(0, MAX_REASON - 1)}…` : flat;
}

/**
 * A status listener that turns each server's failure into one line naming the server and the reason
 * (with the last line of its stderr), said once per failure: `could not start` while it was connecting,
 * `stopped` once it had been ready.
 */
export function mcpFailureReporter(
	notice: (message: string) => void,
): (server: string, status: McpServerStatus) => void {
	const last = new Map<string, McpServerStatus["state"]>();
	return (server, status) => {
		const before = last.get(server) ?? "connecting";
		last.set(server, status.state);
		if (status.state !== "failed" || before === "failed") return;
		const stderr = status.stderr
			?.split("\n")
			.map((line) => line.trim())
			.filter((line) => line !== "")
			.at(-1);
		const verb = before === "ready" ? "stopped" : "could not start";
		const tail = stderr === undefined ? "" : ` (its stderr: ${stderr})`;
		notice(oneLine(`MCP server "${server}" ${verb}: ${status.error}${tail}. \`gantry mcp list\` shows the servers.`));
	};
}

/**
 * The extension for the MCP servers of `<cwd>/.mcp.json` and `~/.gantry/mcp.json`, or undefined when
 * neither configures a server; stdio servers start in `cwd`. A config that cannot be used is a
 * `session_failed` error naming the file.
 */
export async function loadMcpServers(
	cwd: string,
	options: LoadMcpServersOptions = {},
): Promise<McpExtension | undefined> {
	let config: Awaited<ReturnType<typeof loadMcpConfig>>;
	try {
		config = await loadMcpConfig(
			cwd,
			withoutUndefined({ home: options.home, project: options.project, trusted: options.trusted }),
		);
	} catch (error) {
		throw new CliError("session_failed", errorText(error), { cause: error });
	}
	if (Object.keys(config.mcpServers).length === 0) return undefined;
	const onFailure = options.onFailure;
	return createMcpExtension(config, { cwd, ...(onFailure ? { onStatus: mcpFailureReporter(onFailure) } : {}) });
}

/**
 * Over `--ssh` only `~/.gantry/mcp.json` is used: its servers run on this machine, in the shell's folder,
 * while the project's `.mcp.json` (on the remote host, where its commands and paths make sense) is not
 * started. When that file exists, `notice` gets one line that says so.
 */
export async function noteRemoteMcpConfig(
	workspace: Workspace,
	cwd: string,
	notice: (message: string) => void,
): Promise<void> {
	const path = posix.join(cwd, ".mcp.json");
	const found = await workspace.fs.stat(path).catch(() => undefined);
	if (found === undefined) return;
	notice(
		`${workspace.label}:${path} is not used over --ssh: its MCP servers are not started (only those of ~/.gantry/mcp.json run, on this machine).`,
	);
}

/**
 * Ties the servers' lifetime to the session: the first prompt waits (bounded) for servers still
 * connecting, so their tools can be searched, and `dispose()` closes every server and its process.
 */
export function attachMcpServers(session: AgentSession, mcp: McpExtension): void {
	bySession.set(session, mcp);
	const prompt = session.prompt.bind(session);
	const dispose = session.dispose.bind(session);
	let waited = false;
	session.prompt = async (text: string) => {
		if (!waited) {
			waited = true;
			await mcp.settled(MCP_FIRST_PROMPT_WAIT_MS);
		}
		return prompt(text);
	};
	session.dispose = async () => {
		try {
			await dispose();
		} finally {
			await mcp.close();
		}
	};
}

/** The MCP servers attached to `session`, if any. */
export function mcpServersOf(session: AgentSession): McpExtension | undefined {
	return bySession.get(session);
}
