// Path rules judged on the session's workspace: a workspace whose paths are made up (`/virtual/...`) and
// mapped onto real temp folders, so this machine's realpath and home cannot give the right answer.
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createMappedWorkspace, type MappedWorkspace, VIRTUAL_HOME } from "@gantry/tools/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compilePermissionRules, judgeCall } from "../../src/permissions/permission-decision.js";
import { withTempDir } from "../session/helpers.js";
import { editCall, runUnderDeny, type ScriptedCall, writeCall } from "./run-under-deny.js";

let mapped: MappedWorkspace;
beforeEach(async () => {
	mapped = await createMappedWorkspace();
});
afterEach(() => mapped.cleanup());

const edit = editCall;
const write = writeCall;

/** Runs the calls in one turn on the mapped workspace under `deny` in yes mode (what is not denied runs). */
const runCalls = (deny: string[], calls: ScriptedCall[]) => runUnderDeny({ workspace: mapped.workspace }, deny, calls);

describe("path rules on a workspace that is not this machine", () => {
	it("follow the workspace's links: edit(.env) blocks an edit of a link to .env", async () => {
		await writeFile(join(mapped.project, ".env"), "one\n");
		await writeFile(join(mapped.project, "notes.txt"), "one\n");
		await symlink(".env", join(mapped.project, "innocent"));
		await mkdir(join(mapped.project, "deep"));
		await symlink("../.env", join(mapped.project, "deep", "also-innocent"));

		const outcomes = await runCalls(["edit(.env)"], [edit("innocent"), edit("deep/also-innocent"), edit("notes.txt")]);

		expect(outcomes[0]).toContain(
			"Blocked by the permission policy: edit on innocent is denied by the deny rule edit(.env)",
		);
		expect(outcomes[1]).toContain("denied by the deny rule edit(.env)");
		expect(outcomes[2]).toBe("ran");
		expect(await readFile(join(mapped.project, ".env"), "utf8")).toBe("one\n");
		expect(await readFile(join(mapped.project, "notes.txt"), "utf8")).toBe("two\n");
		// The links were resolved on the workspace, not on this machine.
		expect(mapped.operations).toContain("realpath /virtual/project/innocent");
	});

	it("follow a dangling link and the nearest existing folder for a file a write creates", async () => {
		await mkdir(join(mapped.project, "secret"));
		await symlink("secret", join(mapped.project, "drop"));
		await symlink("secret/new-key.txt", join(mapped.project, "dangling"));

		const outcomes = await runCalls(
			["write(secret/**)"],
			[write("drop/new.txt"), write("dangling"), write("elsewhere/new.txt")],
		);

		expect(outcomes[0]).toContain("denied by the deny rule write(secret/**)");
		expect(outcomes[1]).toContain("denied by the deny rule write(secret/**)");
		expect(outcomes[2]).toBe("ran");
		await expect(readFile(join(mapped.project, "secret", "new.txt"))).rejects.toThrow(/ENOENT/);
		await expect(readFile(join(mapped.project, "secret", "new-key.txt"))).rejects.toThrow(/ENOENT/);
		expect(await readFile(join(mapped.project, "elsewhere", "new.txt"), "utf8")).toBe("written\n");
	});

	it("read ~ in a rule and in a path as the workspace's home", async () => {
		await mkdir(join(mapped.home, ".ssh"));
		await writeFile(join(mapped.home, ".ssh", "config"), "one\n");
		await symlink(join(mapped.home, ".ssh"), join(mapped.project, "keys"));

		const outcomes = await runCalls(
			["edit(~/.ssh/**)"],
			[edit(`${VIRTUAL_HOME}/.ssh/config`), edit("~/.ssh/config"), edit("keys/config")],
		);

		for (const outcome of outcomes) expect(outcome).toContain("denied by the deny rule edit(~/.ssh/**)");
		expect(await readFile(join(mapped.home, ".ssh", "config"), "utf8")).toBe("one\n");
	});

	it("block, with what went wrong, when the workspace cannot tell where a path leads", async () => {
		const failing = {
			...mapped.workspace,
			fs: {
				...mapped.workspace.fs,
				realpath: async () => {
					throw Object.assign(new Error("the connection was closed"), { code: "ECONNRESET" });
				},
			},
		};
		const rules = compilePermissionRules([], ["edit(.env)"]);
		const call = { toolName: "edit", input: { path: "innocent" }, cwd: failing.cwd, annotations: undefined };
		await expect(judgeCall(rules, { ...call, workspace: failing }, "yes")).rejects.toThrow(
			"Cannot tell where /virtual/project leads on mapped (the connection was closed)",
		);
	});
});

describe("path rules on this machine", () => {
	it("follow a dangling link to the file a write would create", () =>
		withTempDir(async (cwd) => {
			await mkdir(join(cwd, "secret"));
			await symlink("secret/key.txt", join(cwd, "dangling"));
			const rules = compilePermissionRules(["write"], ["write(secret/**)"]);
			const call = { toolName: "write", input: { path: "dangling" }, cwd, annotations: undefined };
			expect((await judgeCall(rules, call, "yes")).decision).toBe("deny");
			expect((await judgeCall(rules, { ...call, input: { path: "other.txt" } }, "yes")).decision).toBe("allow");
		}));
});
