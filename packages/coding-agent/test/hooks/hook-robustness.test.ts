import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";
import { isAlive, on, startHookSession } from "./fixtures.js";

const echoCall = (text: string) => ({ toolCalls: [{ name: "bash", arguments: { command: `echo ${text}` } }] });

async function pidIn(dir: string, name: string): Promise<number> {
	return Number((await readFile(join(dir, name), "utf8")).trim());
}

async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
	for (let attempt = 0; attempt < 200; attempt++) {
		if (await check()) return;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`timed out waiting for ${what}`);
}

describe("a hook never hangs the session", () => {
	it(
		"past its timeout it is killed with its whole process tree and counts as a non-blocking error",
		() =>
			withTempDir(async (dir) => {
				const slow = {
					command: `sleep 300 & echo $! > "$CLAUDE_PROJECT_DIR/child.pid"; echo $$ > "$CLAUDE_PROJECT_DIR/hook.pid"; wait`,
					timeout: 1,
				};
				const { session, notices } = await startHookSession(dir, { PreToolUse: [on("Bash", slow)] }, [
					echoCall("after"),
					{ text: "ok" },
				]);
				await session.prompt("go");
				expect(notices).toEqual([expect.stringContaining("did not finish within 1 s and was stopped")]);
				expect(textOf(toolResults(session.messages)[0]!)).toContain("after");
				expect(await isAlive(await pidIn(dir, "hook.pid"))).toBe(false);
				expect(await isAlive(await pidIn(dir, "child.pid"))).toBe(false);
				await session.dispose();
			}),
		30_000,
	);

	it(
		"a daemon it forks (holding its output open) neither hangs the call nor outlives the hook",
		() =>
			withTempDir(async (dir) => {
				const daemon = `setsid sleep 300 & echo $! > "$CLAUDE_PROJECT_DIR/daemon.pid"; exit 0`;
				const { session, notices } = await startHookSession(dir, { PreToolUse: [on("Bash", daemon)] }, [
					echoCall("ran"),
					{ text: "ok" },
				]);
				await session.prompt("go");
				expect(notices).toEqual([]);
				expect(textOf(toolResults(session.messages)[0]!)).toContain("ran");
				const pid = await pidIn(dir, "daemon.pid");
				await waitFor(async () => !(await isAlive(pid)), "the daemon to be gone");
				await session.dispose();
			}),
		30_000,
	);

	it(
		"20 MB of output, invalid JSON and an oversized context are survived; context is cut at 10,000 characters",
		() =>
			withTempDir(async (dir) => {
				const flood = `head -c 20000000 /dev/zero | tr '\\0' x`;
				const broken = `echo '{"hookSpecificOutput": {'`;
				const huge = `printf '{"hookSpecificOutput": {"additionalContext": "'; head -c 30000 /dev/zero | tr '\\0' y; printf '"}}'`;
				const { session, notices } = await startHookSession(dir, { PreToolUse: [on("Bash", flood, broken, huge)] }, [
					echoCall("survived"),
					{ text: "ok" },
				]);
				await session.prompt("go");
				const text = textOf(toolResults(session.messages)[0]!);
				expect(text).toContain("survived");
				expect(text).toContain(`${"y".repeat(10_000)}\n[cut: 20000 more characters]`);
				expect(text).not.toContain("y".repeat(10_001));
				expect(notices).toEqual([expect.stringContaining("printed output that is not valid JSON")]);
				await session.dispose();
			}),
		60_000,
	);

	it(
		"abort kills a running hook and the prompt ends",
		() =>
			withTempDir(async (dir) => {
				const stuck = `echo $$ > "$CLAUDE_PROJECT_DIR/hook.pid"; sleep 300`;
				const { session } = await startHookSession(dir, { PreToolUse: [on("Bash", stuck)] }, [
					echoCall("never"),
					{ text: "ok" },
				]);
				const prompt = session.prompt("go");
				await waitFor(
					async () => (await readFile(join(dir, "hook.pid"), "utf8").catch(() => "")) !== "",
					"the hook to start",
				);
				const pid = await pidIn(dir, "hook.pid");
				session.abort();
				await prompt;
				expect(await isAlive(pid)).toBe(false);
				const [result] = toolResults(session.messages);
				expect(result?.isError).toBe(true);
				expect(textOf(result!)).not.toContain("never");
				await session.dispose();
			}),
		30_000,
	);

	it(
		"several matching hooks run at the same time, and identical commands once",
		() =>
			withTempDir(async (dir) => {
				// Each hook waits for the other to have started: run one after the other, the first would give up.
				const waitsFor = (mine: string, theirs: string) =>
					`touch "${mine}"; i=0; while [ ! -f "${theirs}" ]; do i=$((i+1)); [ $i -gt 200 ] && { echo "${theirs} never started" >&2; exit 1; }; sleep 0.05; done`;
				const once = `echo x >> "$CLAUDE_PROJECT_DIR/ran-once"`;
				const { session, notices } = await startHookSession(
					dir,
					{
						PreToolUse: [
							on("Bash", waitsFor("a.started", "b.started"), once),
							on("*", waitsFor("b.started", "a.started"), once),
						],
					},
					[echoCall("both"), { text: "ok" }],
				);
				await session.prompt("go");
				expect(notices).toEqual([]);
				expect(await readFile(join(dir, "ran-once"), "utf8")).toBe("x\n");
				await session.dispose();
			}),
		30_000,
	);
});
