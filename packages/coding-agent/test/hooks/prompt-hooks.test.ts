import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Context } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { withTempDir } from "../session/helpers.js";
import { hookCommand, on, readHookLog, startHookSession } from "./fixtures.js";

/** The text of the user messages of a request, in order. */
function userTexts(context: Context | undefined): string[] {
	return (context?.messages ?? [])
		.filter((message) => message.role === "user")
		.map((message) =>
			typeof message.content === "string"
				? message.content
				: message.content.map((block) => (block.type === "text" ? block.text : "")).join("\n"),
		);
}

describe("UserPromptSubmit hooks", () => {
	it("add their plain stdout and additionalContext to the prompt the model sees", () =>
		withTempDir(async (dir) => {
			const { session, model } = await startHookSession(
				dir,
				{ UserPromptSubmit: [on(undefined, hookCommand("branch_context.sh"), hookCommand("no_secrets_in_prompt.py"))] },
				[{ text: "ok" }],
			);
			await session.prompt("Which branch do we release from?");
			const [prompt] = userTexts(model.calls[0]);
			expect(prompt).toContain("Which branch do we release from?");
			expect(prompt).toContain("The project's release branch is called trunk.");
			expect(prompt).toContain("Answer in English.");
			expect(prompt!.indexOf("trunk")).toBeLessThan(prompt!.indexOf("Answer in English."));
			await session.dispose();
		}));

	it("decision block and exit 2 drop the prompt: the model is never asked, the user is told why", () =>
		withTempDir(async (dir) => {
			const blocked = await startHookSession(
				dir,
				{ UserPromptSubmit: [on(undefined, hookCommand("no_secrets_in_prompt.py"))] },
				[{ text: "never" }],
			);
			await blocked.session.prompt("use the key sk-abc123 please");
			expect(blocked.model.calls).toHaveLength(0);
			expect(blocked.session.messages).toEqual([]);
			expect(blocked.notices).toEqual([
				expect.stringContaining("The prompt seems to contain an API key; it was not sent."),
			]);
			await blocked.session.dispose();

			const exitTwo = await startHookSession(
				dir,
				{ UserPromptSubmit: [on(undefined, `cat >/dev/null; echo "quiet hours" >&2; exit 2`)] },
				[{ text: "never" }],
			);
			await exitTwo.session.prompt("hello");
			expect(exitTwo.model.calls).toHaveLength(0);
			expect(exitTwo.notices).toEqual([expect.stringContaining("quiet hours")]);
			await exitTwo.session.dispose();
		}));
});

describe("SessionStart and SessionEnd hooks", () => {
	it("SessionStart's context reaches the first prompt; its matcher picks the source; SessionEnd runs on dispose", () =>
		withTempDir(async (dir) => {
			const sessionFile = join(dir, "session.jsonl");
			const hooks = {
				SessionStart: [
					on("startup", hookCommand("branch_context.sh"), hookCommand("record.py")),
					on("resume", "echo resumed-context"),
				],
				SessionEnd: [on(undefined, hookCommand("record.py"))],
			};
			const first = await startHookSession(dir, hooks, [{ text: "ok" }, { text: "again" }], { sessionFile });
			await first.session.prompt("hi");
			await first.session.prompt("and again");
			expect(userTexts(first.model.calls[0])[0]).toContain("The project's release branch is called trunk.");
			// Only the first prompt carries it.
			expect(userTexts(first.model.calls[1])[1]).toBe("and again");
			await first.session.dispose();

			const resumed = await startHookSession(dir, hooks, [{ text: "back" }], { sessionFile });
			await resumed.session.prompt("where were we?");
			const texts = userTexts(resumed.model.calls[0]);
			expect(texts.at(-1)).toContain("resumed-context");
			expect(texts.at(-1)).not.toContain("trunk");
			await resumed.session.dispose();

			const log = await readHookLog(dir);
			expect(
				log.map(
					(entry) => `${String(entry.input.hook_event_name)}:${String(entry.input.source ?? entry.input.reason)}`,
				),
			).toEqual(["SessionStart:startup", "SessionEnd:other", "SessionEnd:other"]);
			expect(log[0]?.input.transcript_path).toBe(sessionFile);
		}));
});

describe("Stop hooks", () => {
	it("decision block makes the agent go on with the reason; the next Stop carries stop_hook_active", () =>
		withTempDir(async (dir) => {
			const { session, model } = await startHookSession(
				dir,
				{ Stop: [on(undefined, hookCommand("keep_going.py"), hookCommand("record.py"))] },
				[
					{ text: "All done." },
					{ toolCalls: [{ name: "write", arguments: { path: "DONE.txt", content: "done\n" } }] },
					{ text: "Wrote DONE.txt." },
				],
			);
			await session.prompt("do the thing");
			expect(model.calls).toHaveLength(3);
			expect(userTexts(model.calls[1]).at(-1)).toContain("Before you stop, write DONE.txt.");
			expect(await readFile(join(dir, "DONE.txt"), "utf8")).toBe("done\n");
			const log = await readHookLog(dir);
			expect(log.map((entry) => entry.input.stop_hook_active)).toEqual([false, true]);
			expect(log.map((entry) => entry.input.last_assistant_message)).toEqual(["All done.", "Wrote DONE.txt."]);
			await session.dispose();
		}));

	it("exit 2 also continues; Stop does not run after a failed model request", () =>
		withTempDir(async (dir) => {
			const once = `cat >/dev/null; [ -f "$CLAUDE_PROJECT_DIR/stopped" ] && exit 0; touch "$CLAUDE_PROJECT_DIR/stopped"; echo "run the tests first" >&2; exit 2`;
			const { session, model } = await startHookSession(
				dir,
				{ Stop: [on(undefined, once, hookCommand("record.py"))] },
				[{ text: "done" }, { text: "", stopReason: "error", errorMessage: "overloaded" }],
			);
			await session.prompt("go");
			expect(model.calls).toHaveLength(2);
			expect(userTexts(model.calls[1]).at(-1)).toContain("run the tests first");
			// The first Stop ran (and blocked); after the failed request no Stop runs.
			expect(await readHookLog(dir)).toHaveLength(1);
			await session.dispose();
		}));
});
