import { usageError } from "../errors.js";
import type { McpScope } from "../mcp-config-writer.js";

/** `gantry mcp add NAME [options] [--] CMD ARGS…` or `gantry mcp add NAME --transport http URL [--header …]`. */
export interface McpAddArguments {
	subcommand: "add";
	name: string;
	scope: McpScope;
	cwd?: string;
	/** The entry as it goes into the file, in Claude Code's shape. */
	entry: Record<string, unknown>;
}

/** `gantry mcp remove NAME [--scope project|user]`; without a scope, whichever file has the name. */
export interface McpRemoveArguments {
	subcommand: "remove";
	name: string;
	scope?: McpScope;
	cwd?: string;
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function checkName(name: string | undefined, command: string): string {
	if (name === undefined || name === "" || name.startsWith("-"))
		throw usageError(`gantry mcp ${command} needs the server's name first, e.g. gantry mcp ${command} files …`);
	if (!NAME.test(name))
		throw usageError(
			`The server name "${name}" may hold only letters, digits, "_", "-" and "." (at most 64): it becomes part of its tools' names (mcp__<name>__<tool>)`,
		);
	return name;
}

function parseScope(value: string | undefined): McpScope {
	if (value === "project" || value === "user") return value;
	if (value === "local")
		throw usageError(
			"--scope local is Claude Code's private list in ~/.claude.json, which Gantry does not have: use --scope project (.mcp.json, shared with the repository) or --scope user (~/.gantry/mcp.json, yours)",
		);
	throw usageError(`--scope needs project or user (got "${value ?? ""}")`);
}

function optionValue(argv: readonly string[], index: number, option: string, what: string): string {
	const value = argv[index];
	if (value === undefined || value === "") throw usageError(`${option} needs ${what}`);
	return value;
}

function parseEnv(text: string, env: Record<string, string>): void {
	const equals = text.indexOf("=");
	const key = equals === -1 ? text : text.slice(0, equals);
	if (equals === -1 || !ENV_NAME.test(key))
		throw usageError(
			`--env needs KEY=value, KEY made of letters, digits and "_" and not starting with a digit (got "${text}"), e.g. --env GITHUB_TOKEN=\${GITHUB_TOKEN}`,
		);
	if (Object.hasOwn(env, key)) throw usageError(`--env ${key} is given twice`);
	env[key] = text.slice(equals + 1);
}

function parseHeader(text: string, headers: Record<string, string>): void {
	const colon = text.indexOf(":");
	const name = colon === -1 ? "" : text.slice(0, colon).trim();
	const value = colon === -1 ? "" : text.slice(colon + 1).trim();
	if (!HEADER_NAME.test(name))
		throw usageError(`--header needs "Name: value" with a header name before the colon (got "${text}")`);
	if (/[\r\n\0]/.test(value)) throw usageError(`--header ${name}'s value may not hold line breaks`);
	if (Object.keys(headers).some((known) => known.toLowerCase() === name.toLowerCase()))
		throw usageError(`--header ${name} is given twice`);
	headers[name] = value;
}

function checkUrl(url: string): void {
	// A URL may be spelled with ${VAR}s that expand when the file is read.
	if (url.includes("${")) return;
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		parsed = undefined;
	}
	if (parsed === undefined || (parsed.protocol !== "http:" && parsed.protocol !== "https:"))
		throw usageError(`--transport http needs the server's http(s) URL after the name (got "${url}")`);
}

/** Parses what follows `gantry mcp add`. Options go before the command; after it (or `--`) all is its arguments. */
export function parseMcpAdd(argv: readonly string[]): McpAddArguments {
	let scope: McpScope = "project";
	let transport: "stdio" | "http" | "sse" | undefined;
	let cwd: string | undefined;
	const env: Record<string, string> = {};
	const headers: Record<string, string> = {};
	const positionals: string[] = [];
	let index = 0;
	for (; index < argv.length; index++) {
		const token = argv[index] ?? "";
		// A command starts after the name: from there on every word is the command's. An HTTP server's
		// options may follow its URL.
		if (positionals.length >= 2 && transport !== "http" && transport !== "sse") break;
		if (token === "--") {
			index++;
			break;
		}
		if (token === "--scope" || token === "-s") scope = parseScope(argv[++index]);
		else if (token === "--transport" || token === "-t") {
			const value = optionValue(argv, ++index, token, "stdio, http or sse");
			if (value !== "stdio" && value !== "http" && value !== "sse")
				throw usageError(`--transport needs stdio, http or sse (got "${value}")`);
			transport = value;
		} else if (token === "--env" || token === "-e") parseEnv(optionValue(argv, ++index, token, "KEY=value"), env);
		else if (token === "--header" || token === "-H")
			parseHeader(optionValue(argv, ++index, token, '"Name: value"'), headers);
		else if (token === "--cwd") cwd = optionValue(argv, ++index, token, "a folder");
		else if (token.startsWith("-") && token !== "-")
			throw usageError(
				`Unknown option ${token} for gantry mcp add (options go before the command; put -- before a command whose own options look like this)`,
			);
		else positionals.push(token);
	}
	const [name, ...given] = positionals;
	const server = checkName(name, "add");
	const words = [...given, ...argv.slice(index)];
	let entry: Record<string, unknown>;
	if (transport === "http" || transport === "sse") {
		if (Object.keys(env).length > 0)
			throw usageError("--env is for a command (stdio) server; an HTTP server takes --header instead");
		const [url, extra] = words;
		if (url === undefined) throw usageError(`gantry mcp add ${server} --transport ${transport} needs the server's URL`);
		if (extra !== undefined) throw usageError(`--transport ${transport} takes one URL (got also "${extra}")`);
		checkUrl(url);
		entry = { type: transport, url, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
	} else {
		if (Object.keys(headers).length > 0)
			throw usageError("--header is for an HTTP server (--transport http); a command server takes --env instead");
		const [command, ...args] = words;
		if (command === undefined || command.trim() === "")
			throw usageError(
				`gantry mcp add ${server} needs the command that starts the server, e.g. gantry mcp add ${server} -- npx -y @modelcontextprotocol/server-filesystem . (or --transport http URL)`,
			);
		if (/^https?:\/\//.test(command) && args.length === 0)
			throw usageError(`"${command}" looks like a URL: add --transport http to reach an HTTP server`);
		entry = { type: "stdio", command, args, env };
	}
	return { subcommand: "add", name: server, scope, entry, ...(cwd === undefined ? {} : { cwd }) };
}

/** Parses what follows `gantry mcp remove`. */
export function parseMcpRemove(argv: readonly string[]): McpRemoveArguments {
	let scope: McpScope | undefined;
	let cwd: string | undefined;
	const positionals: string[] = [];
	for (let index = 0; index < argv.length; index++) {
		const token = argv[index] ?? "";
		if (token === "--scope" || token === "-s") scope = parseScope(argv[++index]);
		else if (token === "--cwd") cwd = optionValue(argv, ++index, token, "a folder");
		else if (token.startsWith("-")) throw usageError(`Unknown option ${token} for gantry mcp remove`);
		else positionals.push(token);
	}
	const [name, extra] = positionals;
	const server = checkName(name, "remove");
	if (extra !== undefined) throw usageError(`gantry mcp remove takes one name (got also "${extra}")`);
	return {
		subcommand: "remove",
		name: server,
		...(scope === undefined ? {} : { scope }),
		...(cwd === undefined ? {} : { cwd }),
	};
}
