import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolListEntry } from "../../src/tool-list.js";
import { EXAMPLES, makeWorkspace, runCli } from "../helpers/run-cli.js";

let workspace: ReturnType<typeof makeWorkspace>;

beforeEach(() => {
	workspace = makeWorkspace();
});
afterEach(() => {
	workspace.remove();
});

function gantry(args: string[]) {
	return runCli(["tools", ...args], { cwd: workspace.project, home: workspace.home });
}

describe("gantry tools", () => {
	it("lists every registered tool as JSON, without an API key", async () => {
		const run = await gantry(["--json", "-e", join(EXAMPLES, "word-count.ts")]);
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		const tools = JSON.parse(run.stdout) as ToolListEntry[];
		const byName = new Map(tools.map((tool) => [tool.name, tool]));
		expect([...byName.keys()]).toEqual(
			expect.arrayContaining(["read", "bash", "edit", "write", "grep", "find", "ls", "codemode", "word_count"]),
		);
		expect(byName.get("read")).toMatchObject({
			exposure: "direct",
			active: true,
			callable: true,
			annotations: { readOnlyHint: true },
			source: "builtin",
		});
		// The CLI's default set: the seven builtins, grep, find and ls included; powershell stays off.
		for (const name of ["grep", "find", "ls"]) expect(byName.get(name)).toMatchObject({ active: true, callable: true });
		expect(byName.get("powershell")).toMatchObject({ active: false, callable: false });
		expect(byName.get("codemode")).toMatchObject({ exposure: "model-only", active: false, callable: false });
		expect(byName.get("word_count")).toMatchObject({ active: true, source: expect.stringContaining("word-count.ts") });
		// A listing writes no session file.
		expect(existsSync(join(workspace.home, ".gantry"))).toBe(false);
	});

	it("applies --tools and --exclude-tools", async () => {
		const run = await gantry(["--json", "--tools", "read,ls,bash", "--exclude-tools", "bash"]);
		expect(run.code).toBe(0);
		const tools = JSON.parse(run.stdout) as ToolListEntry[];
		expect(tools.map((tool) => [tool.name, tool.active])).toEqual([
			["read", true],
			["ls", true],
		]);
	});

	it("prints a table with the three sets", async () => {
		const run = await gantry([]);
		expect(run.code).toBe(0);
		expect(run.stdout).toMatch(/TOOL\s+EXPOSURE\s+ACTIVE\s+CALLABLE\s+ANNOTATIONS\s+PERMISSION\s+SOURCE/);
		expect(run.stdout).toMatch(/bash\s+direct\s+yes\s+yes\s+destructive, open-world\s+ask\s+builtin/);
		expect(run.stdout).toMatch(/\d+ registered · 7 active .* · 7 callable/);
		expect(run.stdout).toContain("Rules: none (they come from ~/.gantry/settings.json");
	});

	it("names, for each rule that decides some tool, the file or option it came from, and the mode's", async () => {
		mkdirSync(join(workspace.home, ".gantry"));
		writeFileSync(
			join(workspace.home, ".gantry", "settings.json"),
			JSON.stringify({
				permissions: { deny: ["Read(**/.env)"], ask: ["Bash(git push:*)"], defaultMode: "acceptEdits" },
			}),
		);
		const run = await gantry(["--allow", "Bash(npm test:*)", "--deny", "write"]);
		expect(run.code, run.stderr).toBe(0);
		expect(run.stdout).toMatch(/write\s.*deny \(write, --deny\)/);
		expect(run.stdout).toMatch(/edit\s.*allow \(acceptEdits mode, ~\/\.gantry\/settings\.json\)/);
		const rules = run.stdout.split("\n").find((line) => line.startsWith("Rules: ")) ?? "";
		expect(rules).toContain("-Read(**/.env) ~/.gantry/settings.json");
		expect(rules).toContain("?Bash(git push:*) ~/.gantry/settings.json");
		expect(rules).toContain("+Bash(npm test:*) --allow");
		expect(run.stdout).toContain("Mode: acceptEdits (from ~/.gantry/settings.json)");
	});
});
