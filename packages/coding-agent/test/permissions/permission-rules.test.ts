import { execFileSync } from "node:child_process";
import { access, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import {
	CodingAgentError,
	createAgentSession,
	createPermissionPolicy,
	explainToolPermission,
} from "../../src/index.js";
import { compilePermissionRules, judgeCall } from "../../src/permissions/permission-decision.js";
import { echoTool, textOf, toolResults, withTempDir } from "../session/helpers.js";

const exists = (path: string) =>
	access(path).then(
		() => true,
		() => false,
	);

const editAnnotations = { destructiveHint: true };

describe("permission rules", () => {
	it("runs no hidden command behind an allowed prefix (real bash, no UI)", () =>
		withTempDir(async (cwd) => {
			const attempts = ["echo ok && touch F1", "echo ok || touch F2", "echo ok | touch F3", "echo ok `touch F4`"];
			attempts.push("echo ok $(touch F5)", "echo ok > F6");
			const fine = ["echo ok 2>&1", "echo ok > /dev/null", "git status && git diff"];
			execFileSync("git", ["init", "-q"], { cwd });
			const model = createFauxModel([
				{ toolCalls: [...attempts, ...fine].map((command) => ({ name: "bash", arguments: { command } })) },
				{ text: "done" },
			]);
			const policy = createPermissionPolicy({
				allowCommandPrefixes: ["echo ok"],
				permissions: { allow: ["bash(git status)", "bash(git diff)"] },
			});
			const session = await createAgentSession({ cwd, model, extensions: [policy] });
			await session.prompt("go");
			const results = toolResults(session.messages);
			expect(results.map((result) => textOf(result).startsWith("Blocked by the permission policy"))).toEqual([
				...attempts.map(() => true),
				...fine.map(() => false),
			]);
			for (const name of ["F1", "F2", "F3", "F4", "F5", "F6"]) expect(await exists(join(cwd, name))).toBe(false);
			expect(textOf(results[0])).toContain("Runs: echo ok · touch F1");
			expect(textOf(results[5])).toContain("a redirection to a file (> F6)");
			await session.dispose();
		}));

	it("judges path rules on the path relative to cwd, links followed, deny beating allow", () =>
		withTempDir(async (cwd) => {
			await mkdir(join(cwd, "src", "secret"), { recursive: true });
			await mkdir(join(cwd, "outside"));
			await symlink(join(cwd, "outside"), join(cwd, "src", "link"));
			const rules = compilePermissionRules(["edit(src/**)", "read"], ["edit(src/secret/**)", "read(**/.env)"]);
			const judge = (toolName: string, path: string, annotations: object = editAnnotations) =>
				judgeCall(rules, { toolName, input: { path }, cwd, annotations }, "ask").then((verdict) => verdict.decision);
			expect(await judge("edit", "src/a.ts")).toBe("allow");
			expect(await judge("edit", "./src/deep/er/b.ts")).toBe("allow");
			expect(await judge("edit", join(cwd, "src/c.ts"))).toBe("allow");
			expect(await judge("edit", "README.md")).toBe("ask");
			expect(await judge("edit", "src/../README.md")).toBe("ask");
			expect(await judge("edit", "src/link/escape.txt")).toBe("ask");
			expect(await judge("edit", "src/secret/key.txt")).toBe("deny");
			expect(await judge("read", "src/a.ts", { readOnlyHint: true })).toBe("allow");
			expect(await judge("read", "app/.env", { readOnlyHint: true })).toBe("deny");
			// edit(…) path rules hold for every tool that changes files, write included.
			expect(await judge("write", "src/a.ts")).toBe("allow");
			expect(await judge("write", "src/secret/new.txt")).toBe("deny");
		}));

	it("matches tool-name patterns, any case, and lets deny beat allow and yes mode", async () => {
		const rules = compilePermissionRules(["mcp__github__*", "Bash"], ["mcp__github__delete_*"]);
		const judge = (toolName: string, mode: "ask" | "yes" = "ask") =>
			judgeCall(rules, { toolName, input: {}, cwd: "/tmp", annotations: { openWorldHint: true } }, mode).then(
				(verdict) => verdict.decision,
			);
		expect(await judge("mcp__github__create_issue")).toBe("allow");
		expect(await judge("mcp__github__delete_repo")).toBe("deny");
		expect(await judge("mcp__github__delete_repo", "yes")).toBe("deny");
		expect(await judge("mcp__slack__post")).toBe("ask");
		expect(await judge("mcp__slack__post", "yes")).toBe("allow");
		expect(await judge("bash")).toBe("allow");
	});

	it("rejects malformed rules with what is wrong and how to write them", () => {
		const message = (rule: string) => {
			try {
				createPermissionPolicy({ permissions: { allow: [rule] } });
			} catch (error) {
				expect(error).toBeInstanceOf(CodingAgentError);
				return (error as Error).message;
			}
			throw new Error(`${rule} was accepted`);
		};
		expect(message("bash(npm test && rm:*)")).toContain("contains shell syntax (&)");
		expect(message("bash()")).toContain("empty parentheses");
		expect(message("bash(npm * test)")).toContain("end it with :*");
		expect(message("bash(echo 'open)")).toContain("unclosed '");
		expect(message("read file")).toContain("Bash(npm test:*)");
		expect(message("powershell(Get-Item:*)")).toContain("cannot be parsed");
		expect(() => createPermissionPolicy({ permissions: { deny: ["ok", 3 as unknown as string] } })).toThrow(
			"permissions.deny[1] must be a rule string",
		);
	});

	it("explains which rule decides each tool", () => {
		const options = { permissions: { allow: ["bash(npm test:*)", "write"], deny: ["edit", "read(**/.env)"] } };
		expect(explainToolPermission({ name: "edit", annotations: editAnnotations }, options)).toMatchObject({
			decision: "deny",
			decidedBy: "edit",
		});
		// A tool rule for edit covers every builtin that edits files, as Claude Code's Edit does.
		expect(explainToolPermission({ name: "write" }, options)).toMatchObject({ decision: "deny", decidedBy: "edit" });
		expect(explainToolPermission({ name: "bash" }, options)).toEqual({
			decision: "ask",
			decidedBy: "may change things",
			mode: "default",
			conditional: { allow: ["bash(npm test:*)"], deny: [], ask: [] },
		});
		expect(explainToolPermission({ name: "read", annotations: { readOnlyHint: true } }, options)).toEqual({
			decision: "allow",
			decidedBy: "read-only",
			mode: "default",
			conditional: { allow: [], deny: ["read(**/.env)"], ask: [] },
		});
		expect(
			explainToolPermission({ name: "grep", annotations: { readOnlyHint: true } }, options).conditional.deny,
		).toEqual(["read(**/.env)"]);
		expect(explainToolPermission({ name: "bash" }, { ...options, mode: "yes" }).decidedBy).toBe(
			"bypassPermissions mode",
		);
	});

	it("judges the tool as it is at call time: a read-only tool replaced by a destructive one is blocked", () =>
		withTempDir(async (cwd) => {
			await writeFile(join(cwd, "a.txt"), "content\n");
			const destructive = echoTool("read", { annotations: { destructiveHint: true } });
			const model = createFauxModel([
				{ toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] },
				{ toolCalls: [{ name: "read", arguments: { text: "rm -rf" } }] },
				{ text: "ok" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				extensions: [
					createPermissionPolicy(),
					(api) => {
						api.on("tool_result", () => {
							api.registerTool(destructive.definition);
						});
					},
				],
			});
			await session.prompt("go");
			const [first, second] = toolResults(session.messages);
			expect(first?.isError).toBe(false);
			expect(textOf(first)).toContain("content");
			expect(second?.isError).toBe(true);
			expect(textOf(second)).toContain("Blocked by the permission policy");
			expect(destructive.calls).toEqual([]);
			expect(await readFile(join(cwd, "a.txt"), "utf8")).toBe("content\n");
			await session.dispose();
		}));
});
