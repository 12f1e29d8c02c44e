import { access, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { CodingAgentError, createAgentSession } from "../../src/index.js";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";
import { type Call, runCalls, scriptedUI } from "./run-calls.js";

const exists = (path: string) =>
	access(path).then(
		() => true,
		() => false,
	);
const write = (path: string): Call => ({ name: "write", arguments: { path, content: "new\n" } });
const bash = (command: string): Call => ({ name: "bash", arguments: { command } });
const read = (path: string): Call => ({ name: "read", arguments: { path } });

describe("permission modes", () => {
	it("default asks for what may change things (blocked without a UI); reading runs", () =>
		withTempDir(async (cwd) => {
			await writeFile(join(cwd, "a.txt"), "a\n");
			const outcomes = await runCalls({ cwd, settings: {} }, [read("a.txt"), write("b.txt"), bash("touch c")]);
			expect(outcomes[0]).toBe("ran");
			expect(outcomes[1]).toContain("there is no one to approve it");
			expect(outcomes[2]).toContain("there is no one to approve it");
			expect(await exists(join(cwd, "b.txt"))).toBe(false);
		}));

	it("acceptEdits runs edits inside the project, not outside it, not in .git or .gantry, and still asks for bash", () =>
		withTempDir(async (root) => {
			const cwd = join(root, "project");
			await mkdir(join(cwd, ".git", "hooks"), { recursive: true });
			await writeFile(join(cwd, "a.txt"), "one\n");
			const outcomes = await runCalls({ cwd, permissionMode: "acceptEdits" }, [
				write("b.txt"),
				{ name: "edit", arguments: { path: "a.txt", edits: [{ oldText: "one", newText: "two" }] } },
				write("../outside.txt"),
				write(".git/hooks/pre-commit"),
				write(".gantry/settings.local.json"),
				bash("touch c"),
			]);
			expect(outcomes.slice(0, 2)).toEqual(["ran", "ran"]);
			for (const outcome of outcomes.slice(2)) expect(outcome).toContain("there is no one to approve it");
			expect(await exists(join(root, "outside.txt"))).toBe(false);
			expect(await exists(join(cwd, ".git", "hooks", "pre-commit"))).toBe(false);
			expect(await exists(join(cwd, "c"))).toBe(false);
		}));

	it("plan runs only read-only tools, whatever allow rules say, and tells the model the session is planning", () =>
		withTempDir(async (cwd) => {
			await writeFile(join(cwd, "a.txt"), "a\n");
			const outcomes = await runCalls(
				{ cwd, settings: { permissions: { allow: ["Write", "Bash(touch:*)"], defaultMode: "plan" } } },
				[read("a.txt"), write("b.txt"), bash("touch c"), { name: "grep", arguments: { pattern: "a" } }],
			);
			expect(outcomes[0]).toBe("ran");
			expect(outcomes[1]).toContain("the session is planning (plan mode)");
			expect(outcomes[2]).toContain("only read-only tools run");
			expect(outcomes[3]).toBe("ran");
			expect(await exists(join(cwd, "b.txt"))).toBe(false);
		}));

	it("bypassPermissions runs everything but what deny and ask rules cover", () =>
		withTempDir(async (cwd) => {
			const outcomes = await runCalls(
				{
					cwd,
					permissionMode: "bypassPermissions",
					settings: { permissions: { deny: ["Bash(rm:*)"], ask: ["Write(secret.txt)"] } },
				},
				[bash("touch ran"), bash("rm ran"), write("secret.txt"), write("plain.txt")],
			);
			expect(outcomes[0]).toBe("ran");
			expect(outcomes[1]).toContain("is denied by the deny rule Bash(rm:*)");
			expect(outcomes[2]).toContain("must be approved (the ask rule Write(secret.txt))");
			expect(outcomes[3]).toBe("ran");
			expect(await exists(join(cwd, "ran"))).toBe(true);
			expect(await exists(join(cwd, "secret.txt"))).toBe(false);
		}));

	it("dontAsk denies what no allow rule covers, without asking even with a UI", () =>
		withTempDir(async (cwd) => {
			await writeFile(join(cwd, "a.txt"), "a\n");
			const ui = scriptedUI(["Yes", "Yes", "Yes"]);
			const outcomes = await runCalls(
				{
					cwd,
					ui,
					settings: { permissions: { allow: ["Bash(touch:*)"], ask: ["Bash(git:*)"], defaultMode: "dontAsk" } },
				},
				[bash("touch ok"), write("b.txt"), read("a.txt"), bash("git status")],
			);
			expect(outcomes[0]).toBe("ran");
			expect(outcomes[1]).toContain("dontAsk mode");
			expect(outcomes[2]).toBe("ran");
			expect(outcomes[3]).toContain("the ask rule Bash(git:*)");
			expect(ui.asked).toEqual([]);
		}));

	it("takes permissionMode over settings.permissions.defaultMode, and changes mode between calls", () =>
		withTempDir(async (cwd) => {
			const model = createFauxModel([
				{ toolCalls: [write("one.txt")] },
				{ text: "planned" },
				{ toolCalls: [write("two.txt")] },
				{ text: "done" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				settings: { permissions: { defaultMode: "plan" } },
				permissionMode: "acceptEdits",
			});
			expect(session.permissions.mode).toBe("acceptEdits");
			session.permissions.setMode("plan");
			await session.prompt("first");
			session.permissions.setMode("acceptEdits");
			await session.prompt("second");
			const [first, second] = toolResults(session.messages);
			expect(textOf(first)).toContain("plan mode");
			expect(second?.isError).toBe(false);
			expect(() => session.permissions.setMode("plann" as never)).toThrow("did you mean plan?");
			await session.dispose();
			const plain = await createAgentSession({ cwd, model: createFauxModel([]) });
			expect(() => plain.permissions.setMode("plan")).toThrow(CodingAgentError);
			await plain.dispose();
		}));
});
