import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

describe("@gantry/extensions surface", () => {
	it("exports exactly these runtime names", () => {
		expect(Object.keys(api).sort()).toEqual([
			"ExtensionError",
			"ExtensionRunner",
			"TOOL_NAME_PATTERN",
			"Type",
			"assertValidToolDefinition",
			"createToolDefinitionFromAgentTool",
			"createToolInfo",
			"defineTool",
			"isToolActiveByDefault",
			"loadExtensions",
			"plainTheme",
			"wrapToolDefinition",
		]);
	});

	it("keeps node built-ins out of every source file except the loader", async () => {
		const files = (await readdir(SRC, { recursive: true })).filter((file) => file.endsWith(".ts"));
		expect(files).toContain("loader.ts");
		const offenders: string[] = [];
		for (const file of files) {
			if (file === "loader.ts") continue;
			const source = await readFile(`${SRC}${file}`, "utf8");
			if (/from\s+["']node:|import\(\s*["']node:|require\(\s*["']node:/.test(source)) offenders.push(file);
		}
		expect(offenders).toEqual([]);
	});

	it("keeps heavy and terminal dependencies out of the package", async () => {
		const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
			dependencies: Record<string, string>;
		};
		expect(Object.keys(manifest.dependencies).sort()).toEqual([
			"@gantry/agent",
			"@gantry/ai",
			"@sinclair/typebox",
			"jiti",
		]);
	});
});
