import { type CliOptions, parseCliArguments } from "../args.js";
import { usageError } from "../errors.js";
import { type McpAddArguments, type McpRemoveArguments, parseMcpAdd, parseMcpRemove } from "./mcp-add-args.js";

/** `gantry mcp serve [--http HOST:PORT [--token TOKEN]] [--tools …] [--yes] [-e …] [--cwd …]`. */
export interface McpServeArguments {
	subcommand: "serve";
	/** Where to listen; undefined serves stdio. */
	http?: { host: string; port: number };
	/** The bearer token HTTP clients must send (a non-loopback bind without one gets a generated one). */
	token?: string;
	/** The session options (tools, extensions, --yes, --cwd). */
	options: CliOptions;
}

/** `gantry mcp list [--json] [--cwd …]`. */
export interface McpListArguments {
	subcommand: "list";
	json: boolean;
	cwd?: string;
}

/** `gantry mcp call (--url URL | --command "CMD ARGS…") [TOOL [JSON-ARGS]]`; no TOOL lists the tools. */
export interface McpCallArguments {
	subcommand: "call";
	url?: string;
	command?: string[];
	headers: Record<string, string>;
	timeoutMs?: number;
	/** Undefined: list the server's tools instead of calling one. */
	tool?: string;
	args: Record<string, unknown>;
}

export type McpArguments =
	| McpServeArguments
	| McpListArguments
	| McpCallArguments
	| McpAddArguments
	| McpRemoveArguments
	| { subcommand: "help" };

/** Parses what follows `gantry mcp`. Throws a usage error (exit 2) that says what is wrong. */
export function parseMcpArguments(argv: readonly string[]): McpArguments {
	const [subcommand, ...rest] = argv;
	if (subcommand === undefined || subcommand === "--help" || subcommand === "-h" || subcommand === "help")
		return { subcommand: "help" };
	if (subcommand === "serve") return parseServe(rest);
	if (subcommand === "list") return parseList(rest);
	if (subcommand === "call") return parseCall(rest);
	if (subcommand === "add") return parseMcpAdd(rest);
	if (subcommand === "remove") return parseMcpRemove(rest);
	throw usageError(`Unknown command "gantry mcp ${subcommand}" (use serve, list, call, add or remove)`);
}

function parseServe(argv: readonly string[]): McpServeArguments {
	const rest: string[] = [];
	let http: McpServeArguments["http"];
	let bearer: string | undefined;
	for (let index = 0; index < argv.length; index++) {
		const token = argv[index] ?? "";
		if (token === "--http" || token.startsWith("--http=")) {
			const value = token === "--http" ? argv[++index] : token.slice("--http=".length);
			http = parseHostPort(value);
		} else if (token === "--token" || token.startsWith("--token=")) {
			const value = token === "--token" ? argv[++index] : token.slice("--token=".length);
			if (value === undefined || value.trim() === "" || /\s/.test(value))
				throw usageError('--token needs a token without spaces, e.g. --token "$(openssl rand -hex 32)"');
			bearer = value;
		} else rest.push(token);
	}
	if (bearer !== undefined && http === undefined)
		throw usageError("--token applies to --http only (a stdio server is reached by the process that starts it)");
	const options = parseCliArguments(rest);
	if (options.prompt !== undefined) throw usageError(`gantry mcp serve takes no prompt (got "${options.prompt}")`);
	const parsed: McpServeArguments = { subcommand: "serve", options };
	if (http !== undefined) parsed.http = http;
	if (bearer !== undefined) parsed.token = bearer;
	return parsed;
}

function parseHostPort(value: string | undefined): { host: string; port: number } {
	const match = value === undefined ? null : /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value);
	const port = match ? Number(match[2]) : Number.NaN;
	if (!match || port > 65_535)
		throw usageError(`--http needs HOST:PORT or PORT, e.g. --http 127.0.0.1:8123 (got "${value ?? ""}")`);
	const host = (match[1] ?? "127.0.0.1").replace(/^\[|\]$/g, "");
	return { host, port };
}

function parseList(argv: readonly string[]): McpListArguments {
	const parsed: McpListArguments = { subcommand: "list", json: false };
	for (let index = 0; index < argv.length; index++) {
		const token = argv[index];
		if (token === "--json") parsed.json = true;
		else if (token === "--cwd") parsed.cwd = required(argv[++index], "--cwd", "a folder");
		else throw usageError(`gantry mcp list takes only --json and --cwd (got "${token}")`);
	}
	return parsed;
}

function parseCall(argv: readonly string[]): McpCallArguments {
	let url: string | undefined;
	let command: string[] | undefined;
	let timeoutMs: number | undefined;
	const headers: Record<string, string> = {};
	const positionals: string[] = [];
	for (let index = 0; index < argv.length; index++) {
		const token = argv[index] ?? "";
		if (token === "--url") url = required(argv[++index], "--url", "an http(s) address");
		else if (token === "--command") command = splitCommand(required(argv[++index], "--command", "a command line"));
		else if (token === "--header") {
			const header = required(argv[++index], "--header", '"Name: value"');
			const colon = header.indexOf(":");
			if (colon <= 0) throw usageError(`--header needs "Name: value" (got "${header}")`);
			headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
		} else if (token === "--timeout") {
			timeoutMs = Number(required(argv[++index], "--timeout", "milliseconds"));
			if (!(timeoutMs > 0)) throw usageError("--timeout needs a positive number of milliseconds");
		} else if (token.startsWith("--")) throw usageError(`Unknown option ${token} for gantry mcp call`);
		else positionals.push(token);
	}
	if ((url === undefined) === (command === undefined))
		throw usageError('gantry mcp call needs exactly one of --url URL or --command "CMD ARGS…"');
	const [tool, json, extra] = positionals;
	if (extra !== undefined)
		throw usageError(`gantry mcp call takes TOOL and one JSON argument object (got also "${extra}")`);
	let args: unknown = {};
	if (json !== undefined) {
		try {
			args = JSON.parse(json);
		} catch (error) {
			throw usageError(
				`The arguments are not JSON (${(error as Error).message}); pass an object like '{"path":"a.txt"}'`,
			);
		}
	}
	if (typeof args !== "object" || args === null || Array.isArray(args))
		throw usageError(`The arguments must be a JSON object like '{"path":"a.txt"}'`);
	const parsed: McpCallArguments = { subcommand: "call", headers, args: args as Record<string, unknown> };
	if (tool !== undefined) parsed.tool = tool;
	if (url !== undefined) parsed.url = url;
	if (command !== undefined) parsed.command = command;
	if (timeoutMs !== undefined) parsed.timeoutMs = timeoutMs;
	return parsed;
}

function required(value: string | undefined, option: string, what: string): string {
	if (value === undefined || value === "") throw usageError(`${option} needs ${what}`);
	return value;
}

/** Splits a command line on spaces, honouring single and double quotes and backslash escapes. */
export function splitCommand(line: string): string[] {
	const words: string[] = [];
	let word = "";
	let inWord = false;
	let quote: '"' | "'" | undefined;
	for (let index = 0; index < line.length; index++) {
		const char = line[index] ?? "";
		if (quote !== undefined) {
			if (char === quote) quote = undefined;
			else if (char === "\\" && quote === '"' && index + 1 < line.length) word += line[++index];
			else word += char;
		} else if (char === '"' || char === "'") {
			quote = char;
			inWord = true;
		} else if (char === "\\" && index + 1 < line.length) {
			word += line[++index];
			inWord = true;
		} else if (/\s/.test(char)) {
			if (inWord) words.push(word);
			word = "";
			inWord = false;
		} else {
			word += char;
			inWord = true;
		}
	}
	if (quote !== undefined) throw usageError(`--command has an unclosed ${quote} quote`);
	if (inWord) words.push(word);
	if (words.length === 0) throw usageError("--command needs a command line");
	return words;
}
