import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hookLabel } from "../../src/hooks/hook-output.js";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";
import { hookCommand, on, readHookLog, startHookSession } from "./fixtures.js";

describe("PreToolUse hooks", () => {
	it("get Claude Code's JSON (Bash, milliseconds, absolute paths) in the project folder with its variables set", () =>
		withTempDir(async (dir) => {
			const { session } = await startHookSession(dir, { PreToolUse: [on("Bash|Read", hookCommand("record.py"))] }, [
				{
					toolCalls: [
						{ id: "call_bash", name: "bash", arguments: { command: "echo hi", timeout: 2.5 } },
						{ id: "call_read", name: "read", arguments: { path: "notes.txt", offset: 2 } },
					],
				},
				{ text: "done" },
			]);
			await writeFile(join(dir, "notes.txt"), "a\nb\nc\n");
			// A variable named like a secret never reaches a hook (the tools' secret-free environment).
			process.env.GANTRY_HOOK_TEST_SECRET_TOKEN = "hunter2-hunter2";
			try {
				await session.prompt("go");
			} finally {
				delete process.env.GANTRY_HOOK_TEST_SECRET_TOKEN;
			}
			const log = await readHookLog(dir);
			expect(log.map((entry) => entry.input.tool_name)).toEqual(["Bash", "Read"]);
			const [bash, read] = log;
			expect(bash?.input).toMatchObject({
				session_id: session.sessionId,
				cwd: dir,
				// The session's mode as it is at the call (the fixture runs in bypassPermissions).
				permission_mode: "bypassPermissions",
				hook_event_name: "PreToolUse",
				tool_name: "Bash",
				tool_input: { command: "echo hi", timeout: 2500 },
				tool_use_id: "call_bash",
				gantry_tool_name: "bash",
				gantry_tool_input: { command: "echo hi", timeout: 2.5 },
			});
			expect(read?.input.tool_input).toEqual({ file_path: join(dir, "notes.txt"), offset: 2 });
			for (const entry of log) {
				expect(entry.cwd).toBe(dir);
				expect(entry.claude_project_dir).toBe(dir);
				expect(entry.gantry_project_dir).toBe(dir);
				expect(entry.secret_seen).toBe(false);
			}
			expect(toolResults(session.messages).map((result) => result.isError)).toEqual([false, false]);
			await session.dispose();
		}));

	it("exit 2 blocks the call and the model sees stderr; other commands run", () =>
		withTempDir(async (dir) => {
			await writeFile(join(dir, "keep.txt"), "precious");
			const { session, model } = await startHookSession(
				dir,
				{ PreToolUse: [on("Bash", hookCommand("guard_bash.py"))] },
				[
					{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf keep.txt" } }] },
					{ toolCalls: [{ name: "bash", arguments: { command: "echo still here" } }] },
					{ text: "ok" },
				],
			);
			await session.prompt("clean up");
			const [blocked, ran] = toolResults(session.messages);
			expect(blocked?.isError).toBe(true);
			expect(textOf(blocked!)).toContain("rm -rf is not allowed in this project");
			expect(textOf(blocked!)).toContain("Blocked by the PreToolUse hook");
			expect(await readFile(join(dir, "keep.txt"), "utf8")).toBe("precious");
			expect(ran?.isError).toBe(false);
			expect(textOf(ran!)).toContain("still here");
			// The model was asked again after each call: the block is an ordinary error result.
			expect(model.calls).toHaveLength(3);
			await session.dispose();
		}));

	it("another non-zero exit is a non-blocking error shown to the user (UI), or to the diagnostics without one", () =>
		withTempDir(async (dir) => {
			const failing = `echo "lint server unreachable" >&2; exit 1`;
			const turns = () => [{ toolCalls: [{ name: "bash", arguments: { command: "echo ran" } }] }, { text: "ok" }];
			const withUi = await startHookSession(dir, { PreToolUse: [on("*", failing)] }, turns());
			await withUi.session.prompt("go");
			expect(textOf(toolResults(withUi.session.messages)[0]!)).toContain("ran");
			expect(withUi.notices).toEqual([expect.stringContaining("failed with exit code 1: lint server unreachable")]);
			await withUi.session.dispose();

			const headless = await startHookSession(dir, { PreToolUse: [on("", failing)] }, turns(), { headless: true });
			await headless.session.prompt("go");
			expect(toolResults(headless.session.messages)[0]?.isError).toBe(false);
			expect(headless.diagnostics).toEqual([expect.stringContaining("lint server unreachable")]);
			await headless.session.dispose();
		}));

	it("a JSON deny blocks with its reason; a matcher naming other tools leaves the call alone", () =>
		withTempDir(async (dir) => {
			await writeFile(join(dir, ".env"), "SECRET=hunter2");
			await writeFile(join(dir, "readme.md"), "hello");
			const { session } = await startHookSession(
				dir,
				{ PreToolUse: [on("Read|Edit|Write", hookCommand("protect_env.py")), on("Glob", "exit 2")] },
				[
					{
						toolCalls: [
							{ name: "read", arguments: { path: ".env" } },
							{ name: "read", arguments: { path: "readme.md" } },
						],
					},
					{ text: "ok" },
				],
			);
			await session.prompt("look");
			const [secret, readme] = toolResults(session.messages);
			expect(secret?.isError).toBe(true);
			expect(textOf(secret!)).toBe(
				`Blocked by the PreToolUse hook \`${hookLabel(hookCommand("protect_env.py"))}\`: ${join(dir, ".env")} holds secrets.`,
			);
			expect(textOf(secret!)).not.toContain("hunter2");
			expect(textOf(readme!)).toContain("hello");
			await session.dispose();
		}));

	it("an Edit|Write hook sees apply_patch too, with the absolute paths the patch touches", () =>
		withTempDir(async (dir) => {
			const patch = (path: string) => `*** Begin Patch\n*** Add File: ${path}\n+SECRET=1\n*** End Patch`;
			const two = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** Add File: sub/b.txt\n+b\n*** End Patch";
			const { session } = await startHookSession(
				dir,
				{ PreToolUse: [on("Edit|Write", hookCommand("protect_env.py"), hookCommand("record.py"))] },
				[
					{ toolCalls: [{ name: "apply_patch", arguments: { input: patch(".env") } }] },
					{ toolCalls: [{ name: "apply_patch", arguments: { input: two } }] },
					{ text: "ok" },
				],
				{ tools: ["*", "apply_patch"] },
			);
			await session.prompt("go");
			const [env, pair] = toolResults(session.messages);
			expect(env?.isError).toBe(true);
			expect(textOf(env!)).toContain(`${join(dir, ".env")} holds secrets`);
			expect(existsSync(join(dir, ".env"))).toBe(false);
			expect(pair?.isError).toBe(false);
			const log = await readHookLog(dir);
			expect(log.map((entry) => entry.input.tool_name)).toEqual(["apply_patch", "apply_patch"]);
			expect(log[1]?.input.tool_input).toMatchObject({ file_paths: [join(dir, "a.txt"), join(dir, "sub/b.txt")] });
			await session.dispose();
		}));
});
