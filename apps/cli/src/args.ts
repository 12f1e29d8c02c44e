import { withoutUndefined } from "@gantry/ai";
import { usageError } from "./errors.js";

/** How a run talks to the person: a prompt line, the final answer on stdout, or every event as JSON. */
export type CliMode = "interactive" | "print" | "json";

/** The parsed command line. */
export interface CliOptions {
	/** `"tools"` for `gantry tools`, `"sessions"` for `gantry sessions`, `"trust"` for `gantry trust`, else `"run"`. */
	command: "run" | "tools" | "sessions" | "trust";
	/** The prompt given as arguments (joined with spaces). */
	prompt?: string;
	provider?: string;
	model?: string;
	baseUrl?: string;
	apiKey?: string;
	/** `--timeout`: how long the server may send nothing before a request is ended (checked later). */
	timeout?: string;
	/** `--thinking`: the reasoning level (checked later). */
	thinking?: string;
	/** `--tools` allowlist. */
	tools?: string[];
	/** `--exclude-tools` denylist. */
	excludeTools?: string[];
	noTools: boolean;
	/** `-e/--extension` paths, in order. */
	extensions: string[];
	session?: string;
	continue: boolean;
	/**
	 * `--resume [ID|PATH]`: `true` without a value (interactive mode opens a picker), else the session's id
	 * (or a unique prefix of it, as `gantry sessions` shows it) or a transcript path.
	 */
	resume?: string | true;
	/** `--no-session`: keep the conversation in memory, write no transcript. */
	noSession: boolean;
	cwd?: string;
	/** `--system-prompt TEXT|@FILE`: replaces the opening instructions of the system prompt (read later). */
	systemPrompt?: string;
	/** `--append-system-prompt TEXT|@FILE`: added at the end of the system prompt (read later). */
	appendSystemPrompt?: string;
	/** `--no-context-files`: no AGENTS.md / CLAUDE.md in the system prompt. */
	noContextFiles: boolean;
	/** `--ssh user@host[:port]`: run every builtin on that host (`GANTRY_SSH` when absent). */
	ssh?: string;
	/** `-i KEYFILE`: the private key for `--ssh`. */
	identity?: string;
	yes: boolean;
	/** `--allow` permission rules (repeatable), added to the settings files' for this run. */
	allow: string[];
	/** `--deny` permission rules (repeatable). */
	deny: string[];
	/** `--permission-mode`: default, acceptEdits, plan, bypassPermissions or dontAsk (checked later). */
	permissionMode?: string;
	/** `--trust`: trust the working folder (its project settings and `.mcp.json`) before the run. */
	trust: boolean;
	/** `--sandbox`: run bash (and sandboxed MCP servers) in the OS sandbox, as `sandbox.enabled: true` does. */
	sandbox: boolean;
	demo: boolean;
	/** `--mode`, or `"print"` for `-p`; undefined lets the program choose. */
	mode?: CliMode;
	/** `gantry tools --json` / `gantry sessions --json`. */
	json: boolean;
	help: boolean;
	version: boolean;
}

/**
 * One option of the command line: `string` takes one value, `list` a comma list (repeatable), `repeat` one
 * value per use, `flag` none, `optional` a value when the next word is not an option.
 */
export type OptionSpec = { name: string; short?: string; kind: "string" | "list" | "repeat" | "flag" | "optional" };

/** Every option `gantry` knows (the README's options table is checked against this list). */
export const OPTIONS: readonly OptionSpec[] = [
	{ name: "provider", kind: "string" },
	{ name: "model", kind: "string" },
	{ name: "base-url", kind: "string" },
	{ name: "api-key", kind: "string" },
	{ name: "timeout", kind: "string" },
	{ name: "thinking", kind: "string" },
	{ name: "tools", kind: "list" },
	{ name: "exclude-tools", kind: "list" },
	{ name: "no-tools", kind: "flag" },
	{ name: "extension", short: "e", kind: "repeat" },
	{ name: "session", kind: "string" },
	{ name: "continue", short: "c", kind: "flag" },
	{ name: "resume", short: "r", kind: "optional" },
	{ name: "no-session", kind: "flag" },
	{ name: "cwd", kind: "string" },
	{ name: "system-prompt", kind: "string" },
	{ name: "append-system-prompt", kind: "string" },
	{ name: "no-context-files", kind: "flag" },
	{ name: "ssh", kind: "string" },
	{ name: "identity", short: "i", kind: "string" },
	{ name: "yes", short: "y", kind: "flag" },
	{ name: "allow", kind: "repeat" },
	{ name: "deny", kind: "repeat" },
	{ name: "permission-mode", kind: "string" },
	{ name: "trust", kind: "flag" },
	{ name: "sandbox", kind: "flag" },
	{ name: "demo", kind: "flag" },
	{ name: "mode", kind: "string" },
	{ name: "print", short: "p", kind: "flag" },
	{ name: "json", kind: "flag" },
	{ name: "help", short: "h", kind: "flag" },
	{ name: "version", short: "v", kind: "flag" },
];

const MODES: readonly CliMode[] = ["interactive", "print", "json"];

function findOption(token: string): OptionSpec | undefined {
	if (token.startsWith("--")) return OPTIONS.find((option) => option.name === token.slice(2));
	return OPTIONS.find((option) => option.short !== undefined && option.short === token.slice(1));
}

/**
 * Combined short flags: `-yp` is `-y -p`; the last letter may take a value (`-ye ext.ts`). The expanded
 * flags are spliced into `argv` after `index` and the first one is returned; other tokens as they are.
 */
function expandShortFlags(token: string, argv: string[], index: number): string {
	if (!/^-[A-Za-z]{2,}$/.test(token)) return token;
	const letters = Array.from(token.slice(1));
	const options = letters.map((letter) => OPTIONS.find((option) => option.short === letter));
	const unknown = letters.find((_, position) => options[position] === undefined);
	if (unknown !== undefined) throw usageError(`Unknown option -${unknown} in ${token}`);
	const valued = options.findIndex((option) => option?.kind !== "flag");
	if (valued !== -1 && valued !== letters.length - 1) {
		throw usageError(`-${letters[valued]} takes a value, so it must come last in ${token}`);
	}
	argv.splice(index + 1, 0, ...letters.slice(1).map((letter) => `-${letter}`));
	return `-${letters[0]}`;
}

/** A comma list: trimmed names, empty entries dropped; at least one name. */
function parseList(option: string, value: string): string[] {
	const names = value
		.split(",")
		.map((name) => name.trim())
		.filter((name) => name !== "");
	if (names.length === 0) throw usageError(`--${option} needs at least one tool name, e.g. --${option} read,grep`);
	return names;
}

/**
 * Parses `gantry [options] [prompt…]`, `gantry tools [--json]` and `gantry sessions [--json]`. `--name=value` and `--name value`
 * both work; `--` ends the options. Throws a `usage` `CliError` (exit code 2) for unknown options,
 * missing or bad values and options that do not go together.
 */
export function parseCliArguments(input: readonly string[]): CliOptions {
	const argv = [...input];
	const values = new Map<string, string>();
	const lists = new Map<string, string[]>();
	const flags = new Set<string>();
	const positionals: string[] = [];
	for (let index = 0; index < argv.length; index++) {
		const argument = argv[index];
		if (argument === undefined) throw new Error(`Argument ${index} of ${argv.length} is missing`);
		const token = expandShortFlags(argument, argv, index);
		if (token === "--") {
			positionals.push(...argv.slice(index + 1));
			break;
		}
		if (!token.startsWith("-") || token === "-") {
			positionals.push(token);
			continue;
		}
		const equals = token.startsWith("--") ? token.indexOf("=") : -1;
		const name = equals === -1 ? token : token.slice(0, equals);
		const option = findOption(name);
		if (!option) throw usageError(`Unknown option ${name}`);
		if (option.kind === "flag") {
			if (equals !== -1) throw usageError(`--${option.name} takes no value`);
			flags.add(option.name);
			continue;
		}
		let value: string | undefined;
		if (equals !== -1) value = token.slice(equals + 1);
		else {
			const next = argv[index + 1];
			if (next !== undefined && !(next.startsWith("-") && next !== "-")) {
				value = next;
				index++;
			}
		}
		if (option.kind === "optional" && value === undefined) {
			if (flags.has(option.name) || values.has(option.name)) throw usageError(`--${option.name} was given twice`);
			flags.add(option.name);
			continue;
		}
		if (value === undefined || value === "") throw usageError(`${name} needs a value`);
		if (option.kind === "string" || option.kind === "optional") {
			if (flags.has(option.name)) throw usageError(`--${option.name} was given twice`);
			if (values.has(option.name)) throw usageError(`--${option.name} was given twice`);
			values.set(option.name, value);
		} else if (option.kind === "list") {
			lists.set(option.name, [...(lists.get(option.name) ?? []), ...parseList(option.name, value)]);
		} else {
			lists.set(option.name, [...(lists.get(option.name) ?? []), value]);
		}
	}
	return buildOptions(values, lists, flags, positionals);
}

function buildOptions(
	values: Map<string, string>,
	lists: Map<string, string[]>,
	flags: Set<string>,
	positionals: string[],
): CliOptions {
	const first = positionals[0];
	const command: CliOptions["command"] = first === "tools" || first === "sessions" || first === "trust" ? first : "run";
	const words = command === "run" ? positionals : positionals.slice(1);
	if (command !== "run" && words.length > 0) {
		throw usageError(`gantry ${command} takes no arguments (got "${words[0]}")`);
	}
	const prompt = words.length > 0 ? words.join(" ") : undefined;
	const modeValue = values.get("mode");
	if (modeValue !== undefined && !MODES.includes(modeValue as CliMode)) {
		throw usageError(`--mode must be one of ${MODES.join(", ")} (got "${modeValue}")`);
	}
	let mode = modeValue as CliMode | undefined;
	if (flags.has("print")) {
		if (mode !== undefined && mode !== "print") throw usageError(`-p/--print cannot be combined with --mode ${mode}`);
		mode = "print";
	}
	const options: CliOptions = withoutUndefined({
		command,
		prompt,
		provider: values.get("provider"),
		model: values.get("model"),
		baseUrl: values.get("base-url"),
		apiKey: values.get("api-key"),
		timeout: values.get("timeout"),
		thinking: values.get("thinking"),
		tools: lists.get("tools"),
		excludeTools: lists.get("exclude-tools"),
		noTools: flags.has("no-tools"),
		extensions: lists.get("extension") ?? [],
		session: values.get("session"),
		continue: flags.has("continue"),
		resume: flags.has("resume") ? (true as const) : values.get("resume"),
		noSession: flags.has("no-session"),
		cwd: values.get("cwd"),
		systemPrompt: values.get("system-prompt"),
		appendSystemPrompt: values.get("append-system-prompt"),
		noContextFiles: flags.has("no-context-files"),
		ssh: values.get("ssh"),
		identity: values.get("identity"),
		yes: flags.has("yes"),
		allow: lists.get("allow") ?? [],
		deny: lists.get("deny") ?? [],
		permissionMode: values.get("permission-mode"),
		trust: flags.has("trust"),
		sandbox: flags.has("sandbox"),
		demo: flags.has("demo"),
		mode,
		json: flags.has("json"),
		help: flags.has("help"),
		version: flags.has("version"),
	});
	checkCombinations(options, new Set([...values.keys(), ...lists.keys(), ...flags]));
	return options;
}

/** Options the demo takes besides `--demo` itself. */
const DEMO_OPTIONS = new Set(["demo", "help", "version"]);

/** The demo plays its own script on its own model, tools and project: any other option would be ignored. */
function checkDemoOptions(given: ReadonlySet<string>): void {
	const ignored = [...given].filter((name) => !DEMO_OPTIONS.has(name)).map((name) => `--${name}`);
	if (ignored.length === 0) return;
	throw usageError(
		`--demo plays a scripted offline session with its own model, tools and project; drop ${ignored.join(", ")}`,
	);
}

function checkCombinations(options: CliOptions, given: ReadonlySet<string>): void {
	if (options.json && options.command === "run") {
		throw usageError("--json only goes with `gantry tools` and `gantry sessions` (for a run, use --mode json)");
	}
	const chosen = [
		options.session !== undefined ? "--session" : undefined,
		options.continue ? "--continue" : undefined,
		options.resume !== undefined ? "--resume" : undefined,
	].filter((name) => name !== undefined);
	if (chosen.length > 1) throw usageError(`Use one of ${chosen.join(", ")}, not several`);
	if (options.noSession && chosen.length > 0) {
		throw usageError(`--no-session cannot be combined with ${chosen[0]}`);
	}
	if (options.baseUrl !== undefined) {
		let url: URL | undefined;
		try {
			url = new URL(options.baseUrl);
		} catch {
			url = undefined;
		}
		if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
			throw usageError(`--base-url must be an http(s) URL, e.g. http://127.0.0.1:11434/v1 (got "${options.baseUrl}")`);
		}
	}
	if (options.demo && options.command !== "run") {
		throw usageError(`--demo cannot be combined with \`gantry ${options.command}\``);
	}
	if (options.demo && options.prompt !== undefined) throw usageError("--demo plays its own prompt; drop the prompt");
	if (options.demo && options.mode !== undefined) throw usageError("--demo cannot be combined with --mode or -p");
	if (options.demo) checkDemoOptions(given);
	if (options.command !== "run" && options.mode !== undefined) {
		throw usageError(`\`gantry ${options.command}\` has no --mode (use --json for JSON)`);
	}
	if (options.sandbox && options.ssh !== undefined) {
		throw usageError(
			"--sandbox cannot be combined with --ssh: the OS sandbox contains commands on this machine, and over --ssh they run on the remote host, whose own isolation applies. Drop one of them.",
		);
	}
}
