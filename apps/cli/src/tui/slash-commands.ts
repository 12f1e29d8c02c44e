import { resolve } from "node:path";
import type { AgentSession, PermissionOrigins, PermissionPolicyOptions } from "@gantry/coding-agent";
import type { Theme } from "@gantry/extensions";
import { CliError } from "../errors.js";
import { exportTranscript } from "../export/write-export.js";
import { formatToolTable, listTools } from "../tool-list.js";
import { summarizeUsage } from "../usage-summary.js";
import { mcpCommand } from "./mcp-command.js";
import { modelCommand } from "./model-command.js";
import { slashCommandLines } from "./slash-command-list.js";

/** What the prompt loop does after a slash command. */
/**
 * `"rewind"`: the loop runs `/rewind` (it asks questions, so it is not answered here); `"clear"` and
 * `"compact"`: the loop starts a new session, or compacts this one (both wait on the session).
 */
export type SlashOutcome = "continue" | "exit" | "rewind" | "clear" | "compact";

/** What slash commands work on. */
export interface SlashContext {
	session: AgentSession;
	theme: Theme;
	/** Writes the command's output. */
	print(lines: string[]): void;
	/** The run's permission policy options, for the PERMISSION column of `/tools`. */
	permissions?: PermissionPolicyOptions;
	/** Where the run's rules and mode came from, for `/tools`. */
	origins?: PermissionOrigins;
}

const HELP = slashCommandLines();

/**
 * Runs `/tools`, `/tools on|off <name>`, `/mcp`, `/model [id]`, `/session`, `/export [file]`, `/help` or
 * `/exit` (`/rewind`, `/clear`, `/compact`: see `SlashOutcome`); unknown commands get a hint.
 */
export function runSlashCommand(input: string, context: SlashContext): SlashOutcome {
	const [command, ...rest] = input.trim().split(/\s+/);
	const { theme, print } = context;
	switch (command) {
		case "/exit":
		case "/quit":
			return "exit";
		case "/help":
			print(HELP.map((line) => theme.muted(line)));
			return "continue";
		case "/tools":
			print(toolsCommand(rest, context));
			return "continue";
		case "/mcp":
			print(mcpCommand(context.session, theme, context.permissions));
			return "continue";
		case "/session":
			print(sessionSummary(context.session, theme));
			return "continue";
		case "/export":
			print(exportCommand(rest, context));
			return "continue";
		case "/rewind":
			return "rewind";
		case "/model":
			print(modelCommand(rest, context.session, theme));
			return "continue";
		case "/clear":
			return "clear";
		case "/compact":
			return "compact";
		default:
			print([theme.error(`Unknown command ${command}.`), ...HELP.map((line) => theme.muted(line))]);
			return "continue";
	}
}

function toolsCommand(words: string[], { session, theme, permissions, origins }: SlashContext): string[] {
	if (words.length === 0) return formatToolTable(listTools(session, permissions, origins), theme);
	const [action, name] = words;
	if ((action !== "on" && action !== "off") || name === undefined || words.length > 2) {
		return [theme.error("Usage: /tools, /tools on <name>, /tools off <name>")];
	}
	const info = session.getAllTools().find((tool) => tool.name === name);
	if (!info) return [theme.error(`No tool named ${name} is registered (see /tools).`)];
	const active = session.getActiveToolNames();
	if (action === "on") {
		if (info.exposure === "hidden") return [theme.error(`${name} is hidden: it cannot be activated.`)];
		if (active.includes(name)) return [theme.muted(`${name} is already active.`)];
		session.setActiveToolsByName([...active, name]);
		return session.getActiveToolNames().includes(name)
			? [theme.success(`${name} is active: the model sees it from the next request.`)]
			: [theme.error(`${name} could not be activated.`)];
	}
	if (!active.includes(name)) return [theme.muted(`${name} is not active.`)];
	session.setActiveToolsByName(active.filter((other) => other !== name));
	return [theme.success(`${name} is no longer declared to the model.`)];
}

function exportCommand(words: string[], { session, theme }: SlashContext): string[] {
	if (words.length > 1) return [theme.error("Usage: /export, /export <file.html>")];
	const transcript = session.sessionFile;
	if (transcript === undefined)
		return [theme.error("This session has no transcript file (--no-session): nothing to export.")];
	try {
		const output =
			words[0] === undefined
				? undefined
				: resolve(session.workspace.isLocal ? session.workspace.cwd : process.cwd(), words[0]);
		const result = exportTranscript(transcript, output, (name) => session.getToolDefinition(name));
		return [theme.success(`Exported to ${result.outputPath}`)];
	} catch (error) {
		if (error instanceof CliError) return [theme.error(error.message)];
		throw error;
	}
}

function sessionSummary(session: AgentSession, theme: Theme): string[] {
	const counts = { user: 0, assistant: 0, toolResult: 0 };
	for (const message of session.messages) {
		const role = (message as { role?: string }).role;
		if (role === "user" || role === "assistant" || role === "toolResult") counts[role]++;
	}
	const usage = summarizeUsage(session.messages);
	const number = (value: number) => value.toLocaleString("en-US");
	return [
		`${theme.muted("Session file")}  ${session.sessionFile ?? "(in memory)"}`,
		`${theme.muted("Model       ")}  ${session.model.provider}/${session.model.id}`,
		`${theme.muted("Messages    ")}  ${session.messages.length} (${counts.user} user, ${counts.assistant} assistant, ${counts.toolResult} tool results)`,
		`${theme.muted("Tokens      ")}  ${number(usage.input)} in, ${number(usage.output)} out, ${number(usage.cacheRead)} cache read, ${number(usage.cacheWrite)} cache write, ${number(usage.totalTokens)} total`,
		`${theme.muted("Cost        ")}  $${usage.cost.toFixed(4)}`,
	];
}
