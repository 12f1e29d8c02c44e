import type { ToolExposure } from "@gantry/extensions";
import { GantryMcpError } from "../errors.js";
import type { McpConfig, McpServerSettings } from "./types.js";

const EXPOSURES: readonly ToolExposure[] = ["direct", "model-only", "codemode", "deferred", "hidden"];

/**
 * Checks a parsed `.mcp.json` (or a config object given to the SDK) and returns it typed. Throws a
 * `GantryMcpError` (`invalid_config`) naming `source`, the server and the field that is wrong.
 */
export function parseMcpConfig(value: unknown, source: string): McpConfig {
	if (!isObject(value)) fail(source, `must be a JSON object like { "mcpServers": { "name": { "command": "..." } } }`);
	const servers = value.mcpServers;
	if (servers === undefined) return { mcpServers: {} };
	if (!isObject(servers)) fail(source, `"mcpServers" must be an object of server entries by name`);
	const mcpServers: Record<string, McpServerSettings> = {};
	for (const [name, entry] of Object.entries(servers))
		mcpServers[name] = parseServer(entry, `${source}: server "${name}"`);
	return { mcpServers };
}

function parseServer(entry: unknown, where: string): McpServerSettings {
	if (!isObject(entry)) fail(where, "must be an object with a command or a url");
	const isHttp = entry.type === "http" || entry.type === "sse" || entry.type === "streamable-http";
	if (isHttp || (entry.url !== undefined && entry.command === undefined)) {
		if (typeof entry.url !== "string" || !isUrl(entry.url)) fail(where, `needs "url": an http(s) address`);
		optionalStringRecord(entry.headers, where, "headers");
	} else {
		if (typeof entry.command !== "string" || entry.command.trim() === "")
			fail(where, `needs "command" (the program to start) or "type": "http" with a "url"`);
		if (entry.args !== undefined && !(Array.isArray(entry.args) && entry.args.every((arg) => typeof arg === "string")))
			fail(where, `"args" must be an array of strings`);
		optionalStringRecord(entry.env, where, "env");
		if (entry.cwd !== undefined && typeof entry.cwd !== "string") fail(where, `"cwd" must be a string`);
		if (entry.sandbox !== undefined && typeof entry.sandbox !== "boolean")
			fail(where, `"sandbox" must be true or false`);
	}
	checkExposure(entry.exposure, where, "exposure");
	if (entry.timeoutMs !== undefined && !(typeof entry.timeoutMs === "number" && entry.timeoutMs > 0))
		fail(where, `"timeoutMs" must be a positive number of milliseconds`);
	if (entry.startTimeoutMs !== undefined && !(typeof entry.startTimeoutMs === "number" && entry.startTimeoutMs >= 0))
		fail(where, `"startTimeoutMs" must be a number of milliseconds (0 or more)`);
	if (entry.disabled !== undefined && typeof entry.disabled !== "boolean")
		fail(where, `"disabled" must be true or false`);
	if (entry.tools !== undefined) {
		if (!isObject(entry.tools)) fail(where, `"tools" must be an object of per-tool settings by tool name`);
		for (const [tool, settings] of Object.entries(entry.tools)) {
			if (!isObject(settings)) fail(where, `"tools.${tool}" must be an object like { "exposure": "direct" }`);
			checkExposure(settings.exposure, where, `tools.${tool}.exposure`);
			if (settings.readOnly !== undefined && typeof settings.readOnly !== "boolean")
				fail(where, `"tools.${tool}.readOnly" must be true or false`);
		}
	}
	const settings = { ...entry } as McpServerSettings & { type?: string };
	if (isHttp || "url" in settings) settings.type = "http";
	return settings;
}

function checkExposure(value: unknown, where: string, field: string): void {
	if (value !== undefined && !EXPOSURES.includes(value as ToolExposure))
		fail(where, `"${field}" must be one of ${EXPOSURES.join(", ")} (got ${JSON.stringify(value)})`);
}

function optionalStringRecord(value: unknown, where: string, field: string): void {
	if (value === undefined) return;
	if (!isObject(value) || !Object.values(value).every((item) => typeof item === "string"))
		fail(where, `"${field}" must be an object of string values`);
}

function isUrl(text: string): boolean {
	try {
		const url = new URL(text);
		return url.protocol === "http:" || url.protocol === "https:";
	} catch {
		return false;
	}
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function fail(where: string, problem: string): never {
	throw new GantryMcpError("invalid_config", `${where} ${problem}`);
}
