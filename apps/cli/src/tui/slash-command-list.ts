/**
 * Every slash command of interactive mode, in the order `/help` and `gantry --help` list them. Both lists
 * are made from this one, so they cannot drift apart; `runSlashCommand` handles each name (a test checks).
 * Plain data: `gantry --help` imports it without loading the session stack.
 */
export const SLASH_COMMANDS: readonly { name: string; usage: string; description: string }[] = [
	{
		name: "/tools",
		usage: "/tools",
		description: "every registered tool: exposure, active, callable, annotations, permission, source",
	},
	{ name: "/tools", usage: "/tools on <name>", description: "declare a tool to the model from the next request" },
	{ name: "/tools", usage: "/tools off <name>", description: "stop declaring a tool" },
	{ name: "/mcp", usage: "/mcp", description: "the MCP servers: status, and their tools' exposure and state" },
	{ name: "/model", usage: "/model", description: "the provider's models, the current one marked" },
	{ name: "/model", usage: "/model <id>", description: "switch model: the next request uses it" },
	{ name: "/session", usage: "/session", description: "session file, message count and token usage" },
	{
		name: "/clear",
		usage: "/clear",
		description: "start a new session in this folder (the old one stays: gantry --resume)",
	},
	{
		name: "/compact",
		usage: "/compact [instructions]",
		description: "summarise the conversation but its last turns, to save context (automatic at 80 %)",
	},
	{
		name: "/export",
		usage: "/export [file]",
		description: "the session as one self-contained HTML page (default: the transcript's path with .html)",
	},
	{
		name: "/rewind",
		usage: "/rewind",
		description: "go back to before a prompt: code and conversation, conversation only, or code only (Esc Esc too)",
	},
	{ name: "/help", usage: "/help", description: "this list" },
	{ name: "/exit", usage: "/exit", description: "leave (or Ctrl-C twice at an empty prompt, or Ctrl-D)" },
];

/** The command list as aligned lines: usage, then what it does. */
export function slashCommandLines(indent = ""): string[] {
	const width = Math.max(...SLASH_COMMANDS.map((command) => command.usage.length)) + 2;
	return SLASH_COMMANDS.map((command) => `${indent}${command.usage.padEnd(width)}${command.description}`);
}
