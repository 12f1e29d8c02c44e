import { access, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createLocalWorkspace } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import { compilePermissionRules, judgeCall } from "../../src/permissions/permission-decision.js";
import { withTempDir } from "../session/helpers.js";
import { type Call, callResults, runCalls } from "./run-calls.js";

const exists = (path: string) =>
	access(path).then(
		() => true,
		() => false,
	);
const call = (name: string, args: Record<string, unknown>): Call => ({ name, arguments: args });

describe("path rules hold for every tool that touches the path", () => {
	it("Read(**/.env) keeps .env from read, grep, find, ls and edit, in bypassPermissions too", () =>
		withTempDir(async (cwd) => {
			await mkdir(join(cwd, "app"));
			await writeFile(join(cwd, ".env"), "SECRET=hunter2\n");
			await writeFile(join(cwd, "app", ".env"), "SECRET=hunter3\n");
			await writeFile(join(cwd, "notes.txt"), "no secret here\n");
			const results = await callResults(
				{ cwd, permissionMode: "bypassPermissions", settings: { permissions: { deny: ["Read(**/.env)"] } } },
				[
					call("grep", { pattern: "SECRET", path: ".env" }),
					call("grep", { pattern: "SECRET", path: "app/.env" }),
					call("read", { path: "app/.env" }),
					call("edit", { path: ".env", edits: [{ oldText: "SECRET=h", newText: "SECRET=h" }] }),
					call("ls", { path: "app/.env" }),
					call("find", { pattern: "*", path: "app/.env" }),
					call("grep", { pattern: "secret", path: "notes.txt" }),
				],
			);
			for (const result of results.slice(0, 6)) {
				expect(result.isError).toBe(true);
				expect(result.text).toContain("the deny rule Read(**/.env)");
				expect(result.text).not.toContain("hunter");
			}
			expect(results[6]).toMatchObject({ isError: false });
		}));

	it("Edit(…) rules hold for edit and write alike; Write(…) rules too", () =>
		withTempDir(async (cwd) => {
			await mkdir(join(cwd, "secret"));
			await writeFile(join(cwd, "secret", "a.txt"), "one\n");
			const outcomes = await runCalls(
				{
					cwd,
					permissionMode: "bypassPermissions",
					settings: { permissions: { deny: ["edit(secret/**)", "Write(locked.txt)"] } },
				},
				[
					call("write", { path: "secret/b.txt", content: "x" }),
					call("edit", { path: "secret/a.txt", edits: [{ oldText: "one", newText: "two" }] }),
					call("edit", { path: "locked.txt", edits: [{ oldText: "a", newText: "b" }] }),
					call("write", { path: "locked.txt", content: "x" }),
					call("write", { path: "open.txt", content: "x" }),
				],
			);
			expect(outcomes[0]).toContain("the deny rule edit(secret/**)");
			expect(outcomes[1]).toContain("the deny rule edit(secret/**)");
			expect(outcomes[2]).toContain("the deny rule Write(locked.txt)");
			expect(outcomes[3]).toContain("the deny rule Write(locked.txt)");
			expect(outcomes[4]).toBe("ran");
			expect(await exists(join(cwd, "secret", "b.txt"))).toBe(false);
		}));

	it("anchors patterns as Claude Code does: //absolute, ~/home, /project, ./here, and a bare name at any depth", () =>
		withTempDir(async (root) => {
			const cwd = join(root, "project");
			const home = join(root, "home");
			await mkdir(join(cwd, "src", "deep"), { recursive: true });
			await mkdir(home);
			const workspace = createLocalWorkspace(cwd, { home });
			const rules = compilePermissionRules(
				["Edit(/src/**)"],
				[`Read(/${join(root, "outside")}/**)`, "Read(~/.ssh/**)", "Read(./top.txt)", "Read(*.pem)", "Edit(/etc/**)"],
			);
			const decide = (toolName: string, path: string) =>
				judgeCall(rules, { toolName, input: { path }, cwd, annotations: undefined, workspace }, "default").then(
					(verdict) => verdict.decision,
				);
			expect(await decide("read", join(root, "outside", "x.txt"))).toBe("deny");
			expect(await decide("read", join(home, ".ssh", "id_ed25519"))).toBe("deny");
			expect(await decide("read", "~/.ssh/config")).toBe("deny");
			expect(await decide("read", "top.txt")).toBe("deny");
			expect(await decide("read", "src/top.txt")).toBe("ask");
			expect(await decide("read", "src/deep/key.pem")).toBe("deny");
			// `/src/**` is the project's src, not /src; as a deny rule `/etc/**` also keeps its old absolute meaning.
			expect(await decide("write", "src/deep/a.ts")).toBe("allow");
			expect(await decide("write", "/src/a.ts")).toBe("ask");
			expect(await decide("write", "etc/app.conf")).toBe("deny");
			expect(await decide("write", "/etc/hosts")).toBe("deny");
		}));

	it("takes Claude Code's tool names: Glob is find, LS is ls, Grep is grep, Bash is bash", () =>
		withTempDir(async (cwd) => {
			const rules = compilePermissionRules(["Bash(npm test:*)"], ["Glob(vendor/**)", "LS(private)", "Grep(logs/**)"]);
			const decide = (toolName: string, input: Record<string, unknown>) =>
				judgeCall(rules, { toolName, input, cwd, annotations: { readOnlyHint: true } }, "default").then(
					(verdict) => verdict.decision,
				);
			expect(await decide("find", { pattern: "*", path: "vendor/lib" })).toBe("deny");
			expect(await decide("ls", { path: "vendor/lib" })).toBe("allow");
			expect(await decide("ls", { path: "private" })).toBe("deny");
			expect(await decide("grep", { pattern: "x", path: "logs/a.log" })).toBe("deny");
			expect(await decide("read", { path: "logs/a.log" })).toBe("allow");
			const shell = (command: string) =>
				judgeCall(rules, { toolName: "bash", input: { command }, cwd, annotations: undefined }, "default").then(
					(verdict) => verdict.decision,
				);
			expect(await shell("npm test")).toBe("allow");
			expect(await shell("npm test --watch")).toBe("allow");
			expect(await shell("npm testevil")).toBe("ask");
		}));

	it("judges every file a patch names, as apply_patch's own parser reads them", () =>
		withTempDir(async (cwd) => {
			await mkdir(join(cwd, "secret"));
			await mkdir(join(cwd, "src"));
			await writeFile(join(cwd, "src", "a.ts"), "one\n");
			await writeFile(join(cwd, ".env"), "SECRET=hunter2\n");
			const rules = compilePermissionRules(["Edit(src/**)"], ["Edit(secret/**)", "Read(**/.env)"]);
			const decide = (patch: string) =>
				judgeCall(
					rules,
					{ toolName: "apply_patch", input: { input: patch }, cwd, annotations: undefined },
					"default",
				).then((verdict) => verdict.decision);
			const patch = (...body: string[]) => ["*** Begin Patch", ...body, "*** End Patch"].join("\n");
			expect(await decide(patch("*** Add File: src/b.ts", "+two"))).toBe("allow");
			expect(await decide(patch("*** Add File: src/b.ts", "+two", "*** Add File: secret/key", "+x"))).toBe("deny");
			expect(await decide(patch("*** Update File: src/a.ts", "*** Move to: secret/a.ts", "@@", "-one", "+two"))).toBe(
				"deny",
			);
			expect(await decide(patch("*** Update File: .env", "@@", "-SECRET=h", "+SECRET=h"))).toBe("deny");
			expect(await decide(patch("*** Add File: notes.md", "+hi"))).toBe("ask");
			// A patch the tool would refuse touches nothing, so no path rule decides it.
			expect(await decide("not a patch")).toBe("ask");
			const outcomes = await runCalls(
				{
					cwd,
					permissionMode: "acceptEdits",
					tools: ["apply_patch"],
					settings: { permissions: { deny: ["Edit(secret/**)"] } },
				},
				[
					call("apply_patch", { input: patch("*** Add File: src/c.ts", "+three") }),
					call("apply_patch", { input: patch("*** Add File: secret/c.ts", "+three") }),
				],
			);
			expect(outcomes[0]).toBe("ran");
			expect(outcomes[1]).toContain("the deny rule Edit(secret/**)");
			expect(await exists(join(cwd, "src", "c.ts"))).toBe(true);
			expect(await exists(join(cwd, "secret", "c.ts"))).toBe(false);
		}));
});
