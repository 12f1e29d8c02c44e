import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
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

const gantry = (args: string[]) => runCli(args, { cwd: workspace.project, home: workspace.home });

function writeProjectSettings(settings: unknown) {
	mkdirSync(join(workspace.project, ".gantry"), { recursive: true });
	writeFileSync(join(workspace.project, ".gantry", "settings.json"), JSON.stringify(settings));
}

async function permissionOf(args: string[], tool: string) {
	const run = await gantry(["tools", "--json", ...args]);
	expect(run.code).toBe(0);
	return {
		stderr: run.stderr,
		permission: (JSON.parse(run.stdout) as ToolListEntry[]).find((entry) => entry.name === tool)?.permission,
	};
}

describe("project trust in the CLI", () => {
	it("holds an untrusted folder's allow rules back with one line saying how to trust it; gantry trust lets them apply", async () => {
		writeProjectSettings({ permissions: { allow: ["Bash"], deny: ["Bash(rm:*)"] } });
		let listed = await permissionOf([], "bash");
		expect(listed.permission).toMatchObject({ decision: "ask", conditional: { deny: ["Bash(rm:*)"] } });
		const lines = listed.stderr.trim().split("\n");
		expect(lines).toHaveLength(1);
		expect(lines[0]).toContain(`gantry: ${workspace.project} is not trusted`);
		expect(lines[0]).toContain("permissions.allow (1 rule: Bash)");
		expect(lines[0]).toContain("run `gantry trust` there or pass --trust");

		const trust = await gantry(["trust"]);
		expect(trust.code).toBe(0);
		expect(trust.stdout).toContain(`Trusted ${workspace.project}.`);
		expect(trust.stdout).toContain("permissions.allow (1 rule: Bash)");
		const trustFile = JSON.parse(readFileSync(join(workspace.home, ".gantry", "trust.json"), "utf8")) as {
			folders: Record<string, unknown>;
		};
		expect(Object.keys(trustFile.folders)).toEqual([realpathSync(workspace.project)]);
		listed = await permissionOf([], "bash");
		expect(listed.stderr).toBe("");
		expect(listed.permission).toMatchObject({ decision: "allow", decidedBy: "Bash" });
	});

	it("says nothing about a folder whose settings ask for nothing but deny rules", async () => {
		writeProjectSettings({ permissions: { deny: ["Read(**/.env)"] } });
		const listed = await permissionOf([], "read");
		expect(listed.stderr).toBe("");
		expect(listed.permission).toMatchObject({ conditional: { deny: ["Read(**/.env)"] } });
	});

	it("takes --permission-mode, with a did-you-mean, and refuses it beside a different --yes", async () => {
		const plan = await permissionOf(["--permission-mode", "plan"], "write");
		expect(plan.permission).toMatchObject({ decision: "deny", decidedBy: "plan mode", source: "--permission-mode" });
		const typo = await gantry(["tools", "--permission-mode", "plann"]);
		expect(typo.code).toBe(2);
		expect(typo.stderr).toContain("did you mean plan?");
		const both = await gantry(["tools", "--yes", "--permission-mode", "plan"]);
		expect(both.code).toBe(2);
		expect(both.stderr).toContain("--yes");
		writeProjectSettings({ permissions: { defaultMode: "plan" } });
		const fromFile = await permissionOf([], "write");
		expect(fromFile.permission).toMatchObject({
			decidedBy: "plan mode",
			source: join(workspace.project, ".gantry", "settings.json"),
		});
	});

	it("turns a near miss of a tool in --allow or --deny into a usage error with the name meant", async () => {
		const raed = await gantry(["tools", "--deny", "Raed(**/.env)"]);
		expect(raed.code).toBe(2);
		expect(raed.stderr).toContain('--deny: the deny rule "Raed(**/.env)" names no tool');
		expect(raed.stderr).toContain("did you mean Read?");
		const bsh = await gantry(["tools", "--allow", "bsh(echo:*)"]);
		expect(bsh.code).toBe(2);
		expect(bsh.stderr).toContain("did you mean bash?");
	});
});
