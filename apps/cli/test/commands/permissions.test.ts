import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolListEntry } from "../../src/tool-list.js";
import { makeWorkspace, runCli } from "../helpers/run-cli.js";

let workspace: ReturnType<typeof makeWorkspace>;

beforeEach(() => {
	workspace = makeWorkspace();
});
afterEach(() => {
	workspace.remove();
});

function writeSettings(folder: string, settings: unknown, file = "settings.json") {
	mkdirSync(join(folder, ".gantry"), { recursive: true });
	writeFileSync(join(folder, ".gantry", file), typeof settings === "string" ? settings : JSON.stringify(settings));
}

/** Trusts the test project, so its own allow rules apply (kept in the test's home folder). */
async function trustProject() {
	const run = await runCli(["trust"], { cwd: workspace.project, home: workspace.home });
	expect(run.code).toBe(0);
}

async function permissions(args: string[] = []) {
	const run = await runCli(["tools", "--json", ...args], { cwd: workspace.project, home: workspace.home });
	expect(run.stderr).toBe("");
	expect(run.code).toBe(0);
	const tools = JSON.parse(run.stdout) as ToolListEntry[];
	return new Map(tools.map((tool) => [tool.name, tool.permission]));
}

describe("permission settings", () => {
	it("reads the user's and the project's rules, adds --allow/--deny, and shows which rule decides", async () => {
		writeSettings(workspace.home, { permissions: { allow: ["write", "bash(npm test:*)"] } });
		writeSettings(workspace.project, { permissions: { deny: ["write"], allow: ["edit(src/**)"] } });
		await trustProject();
		const byName = await permissions(["--allow", "ls", "--deny", "read(**/.env)", "--allow", "mcp__github__*"]);
		expect(byName.get("write")).toMatchObject({
			decision: "deny",
			decidedBy: "write",
			source: join(workspace.project, ".gantry", "settings.json"),
		});
		expect(byName.get("bash")).toEqual({
			decision: "ask",
			decidedBy: "may change things",
			mode: "default",
			conditional: { allow: ["bash(npm test:*)"], deny: [], ask: [] },
		});
		expect(byName.get("edit")).toMatchObject({ decision: "ask", conditional: { allow: ["edit(src/**)"] } });
		expect(byName.get("read")).toMatchObject({
			decision: "allow",
			decidedBy: "read-only",
			conditional: { deny: ["read(**/.env)"] },
		});
		expect(byName.get("grep")).toMatchObject({ conditional: { deny: ["read(**/.env)"] } });
		const table = await runCli(["tools", "--deny", "bash"], { cwd: workspace.project, home: workspace.home });
		expect(table.stdout).toMatch(/bash .*deny \(bash, --deny\)/);
		expect(table.stdout).toMatch(/edit .* ask \+edit\(src\/\*\*\)/);
	});

	it("lets --yes run everything a deny rule does not block", async () => {
		writeSettings(workspace.project, { permissions: { deny: ["bash(rm:*)", "edit"] } });
		const byName = await permissions(["--yes"]);
		expect(byName.get("bash")).toMatchObject({
			decision: "allow",
			decidedBy: "bypassPermissions mode",
			source: "--yes",
			conditional: { deny: ["bash(rm:*)"] },
		});
		expect(byName.get("edit")).toMatchObject({ decision: "deny" });
	});

	it("stops with the file and the fix for a malformed settings file or rule", async () => {
		const run = (args: string[] = []) => runCli(["tools", ...args], { cwd: workspace.project, home: workspace.home });
		writeSettings(workspace.project, "{ not json");
		let result = await run();
		expect(result.code).toBe(1);
		expect(result.stderr).toContain(join(workspace.project, ".gantry", "settings.json"));
		expect(result.stderr).toContain("is not valid JSON");
		writeSettings(workspace.project, { permissions: { allow: "read" } });
		result = await run();
		expect(result.stderr).toContain("permissions.allow must be a list of rule strings");
		writeSettings(workspace.project, { permissions: { allow: ["bash(npm test; rm:*)"] } });
		result = await run();
		expect(result.stderr).toContain("contains shell syntax (;)");
		writeSettings(workspace.project, {});
		result = await run(["--allow", "bash(a && b)"]);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("--allow: ");
	});

	it("adds the rules of the project's .gantry/settings.local.json, where deny still beats allow", async () => {
		writeSettings(workspace.project, { permissions: { allow: ["write"], deny: ["bash(rm:*)"] } });
		writeSettings(
			workspace.project,
			{ permissions: { allow: ["bash(npm test:*)"], deny: ["write"] } },
			"settings.local.json",
		);
		await trustProject();
		const byName = await permissions();
		expect(byName.get("write")).toMatchObject({ decision: "deny", decidedBy: "write" });
		expect(byName.get("bash")).toMatchObject({
			decision: "ask",
			conditional: { allow: ["bash(npm test:*)"], deny: ["bash(rm:*)"] },
		});
		writeSettings(workspace.project, "[1, 2]", "settings.local.json");
		const broken = await runCli(["tools"], { cwd: workspace.project, home: workspace.home });
		expect(broken.code).toBe(1);
		expect(broken.stderr).toContain(
			`${join(workspace.project, ".gantry", "settings.local.json")}: must hold a JSON object`,
		);
	});
});
