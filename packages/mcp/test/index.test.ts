import { readFile } from "node:fs/promises";
import { describe, expect, test } from "vitest";
import * as api from "../src/index.js";

describe("@gantry/mcp surface", () => {
	test("exports exactly these runtime names", () => {
		expect(Object.keys(api).sort()).toEqual([
			"DEFAULT_MCP_START_TIMEOUT_MS",
			"DEFAULT_MCP_TIMEOUT_MS",
			"GantryMcpError",
			"McpServerConnection",
			"createMcpExtension",
			"createMcpServer",
			"describeMcpStatus",
			"loadMcpConfig",
			"mapMcpResult",
			"mcpServerNameParts",
			"mcpToolNames",
			"parseMcpConfig",
		]);
	});

	test("the index comment lists every export", async () => {
		const source = await readFile(new URL("../src/index.ts", import.meta.url), "utf8");
		const comment = source.split("\n\n")[0] ?? "";
		for (const name of Object.keys(api)) expect(comment).toContain(name);
	});
	test("tells MCP peers the version in its package.json", async () => {
		const { PACKAGE_VERSION } = await import("../src/package-info.js");
		const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
			version: string;
		};
		expect(PACKAGE_VERSION).toBe(manifest.version);
	});
});
