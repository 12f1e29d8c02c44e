import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { SUMMARY_SYSTEM_PROMPT } from "../../src/compaction/summary-prompt.js";
import { type AgentSessionEvent, type CodingAgentError, createAgentSession, loadTranscript } from "../../src/index.js";
import { withTempDir } from "../session/helpers.js";
import { dumpTool, requestLines, smallModel } from "./helpers.js";

const SUMMARY_INTRO = "user: The conversation before this point was compacted to save context. Its summary:";

async function entries(file: string): Promise<{ type: string; [key: string]: unknown }[]> {
	return (await readFile(file, "utf8"))
		.trim()
		.split("\n")
		.map((line) => JSON.parse(line));
}

/** The fixed part of every request (system prompt and tool declarations) in tokens, as the session counts it. */
function fixedTokens(session: { systemPrompt: string; getDeclaredTools(): unknown[] }): number {
	return Math.ceil((session.systemPrompt.length + JSON.stringify(session.getDeclaredTools()).length) / 4);
}

describe("session.compact()", () => {
	it("asks the model for a summary with no tools, then sends the summary and the last turn; a resumed session does too", () =>
		withTempDir(async (cwd) => {
			const sessionFile = join(cwd, "session.jsonl");
			const model = createFauxModel([
				{ text: "answer one" },
				{ text: "answer two" },
				{ text: "SUMMARY: the user counts to two." },
				{ text: "answer three" },
			]);
			const session = await createAgentSession({ cwd, model, sessionFile, noTools: "all" });
			const events: AgentSessionEvent[] = [];
			session.subscribe((event) => void events.push(event));
			await session.prompt("first question");
			await session.prompt("second question");

			const result = await session.compact("keep the numbers");
			const summaryRequest = model.calls[2];
			expect(summaryRequest?.systemPrompt).toBe(SUMMARY_SYSTEM_PROMPT);
			expect(summaryRequest?.tools).toBeUndefined();
			expect(summaryRequest?.messages).toHaveLength(1);
			const asked = requestLines(summaryRequest)[0] as string;
			expect(asked).toContain("[User]\nfirst question");
			expect(asked).toContain("[Assistant]\nanswer one");
			expect(asked).not.toContain("second question");
			expect(asked).toContain("keep the numbers");
			expect(result).toMatchObject({
				reason: "manual",
				summary: "SUMMARY: the user counts to two.",
				firstKeptIndex: 2,
				summarizedMessages: 2,
			});
			expect(events.map((event) => event.type).filter((type) => type.startsWith("compaction"))).toEqual([
				"compaction_start",
				"compaction_end",
			]);

			await session.prompt("third question");
			expect(requestLines(model.calls[3])).toEqual([
				`${SUMMARY_INTRO}\n\n<summary>\nSUMMARY: the user counts to two.\n</summary>`,
				"user: second question",
				"assistant: answer two",
				"user: third question",
			]);
			// The session and its transcript keep every message; the transcript records the compaction.
			expect(session.messages).toHaveLength(6);
			await session.dispose();
			const written = await entries(sessionFile);
			expect(written.filter((entry) => entry.type === "message")).toHaveLength(6);
			expect(written.find((entry) => entry.type === "compaction")).toMatchObject({
				reason: "manual",
				summary: "SUMMARY: the user counts to two.",
				firstKeptIndex: 2,
				instructions: "keep the numbers",
			});

			const again = createFauxModel([{ text: "answer four" }]);
			const resumed = await createAgentSession({ cwd, model: again, sessionFile, noTools: "all" });
			expect(resumed.messages).toHaveLength(6);
			await resumed.prompt("fourth question");
			const sent = requestLines(again.calls[0]);
			expect(sent[0]).toContain("SUMMARY: the user counts to two.");
			expect(sent.slice(1)).toEqual([
				"user: second question",
				"assistant: answer two",
				"user: third question",
				"assistant: answer three",
				"user: fourth question",
			]);
			await resumed.dispose();
		}));

	it("a second compaction folds the first summary into the new one", () =>
		withTempDir(async (cwd) => {
			const model = createFauxModel([
				{ text: "a1" },
				{ text: "a2" },
				{ text: "FIRST SUMMARY" },
				{ text: "a3" },
				{ text: "SECOND SUMMARY" },
				{ text: "a4" },
			]);
			const session = await createAgentSession({ cwd, model, noTools: "all" });
			await session.prompt("q1");
			await session.prompt("q2");
			await session.compact();
			await session.prompt("q3");
			const second = await session.compact();
			const asked = requestLines(model.calls[4])[0] as string;
			expect(asked).toContain("<previous-summary>\nFIRST SUMMARY\n</previous-summary>");
			expect(asked).toContain("[User]\nq2");
			expect(asked).not.toContain("q1");
			expect(second.firstKeptIndex).toBe(4);
			await session.prompt("q4");
			expect(requestLines(model.calls[5])).toEqual([
				expect.stringContaining("SECOND SUMMARY"),
				"user: q3",
				"assistant: a3",
				"user: q4",
			]);
			await session.dispose();
		}));

	it("a failed summary request rejects with compaction_failed and changes nothing", () =>
		withTempDir(async (cwd) => {
			const sessionFile = join(cwd, "session.jsonl");
			const model = createFauxModel([
				{ text: "a1" },
				{ text: "a2" },
				{ stopReason: "error", errorMessage: "the server is down" },
				{ text: "a3" },
			]);
			const session = await createAgentSession({ cwd, model, sessionFile, noTools: "all" });
			await session.prompt("q1");
			await session.prompt("q2");
			const failure = (await session.compact().catch((error: unknown) => error)) as CodingAgentError;
			expect(failure.code).toBe("compaction_failed");
			expect(failure.message).toContain("the server is down");
			await session.prompt("q3");
			expect(requestLines(model.calls[3])).toEqual([
				"user: q1",
				"assistant: a1",
				"user: q2",
				"assistant: a2",
				"user: q3",
			]);
			await session.dispose();
			expect((await entries(sessionFile)).some((entry) => entry.type === "compaction")).toBe(false);
		}));

	it("rejects when there is nothing to summarise yet", () =>
		withTempDir(async (cwd) => {
			const model = createFauxModel([]);
			const session = await createAgentSession({ cwd, model, noTools: "all" });
			await expect(session.compact()).rejects.toMatchObject({
				code: "compaction_failed",
				message: /Nothing to compact/,
			});
			expect(model.calls).toHaveLength(0);
			await session.dispose();
		}));
});

describe("automatic compaction", () => {
	it("at 80 % of the context window trims old tool results first, keeping the recent call and its result", () =>
		withTempDir(async (cwd) => {
			const sessionFile = join(cwd, "session.jsonl");
			const turns = [
				{ toolCalls: [{ name: "dump", arguments: { n: 1 } }], usage: { input: 10, output: 5 } },
				{ toolCalls: [{ name: "dump", arguments: { n: 2 } }], usage: { input: 20, output: 5 } },
				{ toolCalls: [{ name: "dump", arguments: { n: 3 } }], usage: { input: 0, output: 5 } },
				{ text: "done" },
			];
			const model = smallModel(turns, 0);
			const session = await createAgentSession({
				cwd,
				model,
				sessionFile,
				noTools: "all",
				customTools: [dumpTool(2_000)],
				compaction: { keepRecentTokens: 600 },
			});
			// The window leaves room for the system prompt, the tools and ~800 tokens; the third response
			// reports an input at the threshold, so the fourth request (500 tokens more) is over it.
			const limit = fixedTokens(session) + 800;
			model.contextWindow = Math.ceil(limit / 0.8);
			(turns[2] as { usage: { input: number } }).usage.input = limit;
			const events: AgentSessionEvent[] = [];
			session.subscribe((event) => void events.push(event));
			await session.prompt("go");

			expect(requestLines(model.calls[2])).toEqual([
				"user: go",
				"assistant: call dump",
				`toolResult: dump-1:${"x".repeat(1_993)}`,
				"assistant: call dump",
				`toolResult: dump-2:${"x".repeat(1_993)}`,
			]);
			expect(requestLines(model.calls[3])).toEqual([
				"user: go",
				"assistant: call dump",
				"toolResult: [tool result trimmed to save context: 2,000 characters]",
				"assistant: call dump",
				"toolResult: [tool result trimmed to save context: 2,000 characters]",
				"assistant: call dump",
				`toolResult: dump-3:${"x".repeat(1_993)}`,
			]);
			expect(model.calls).toHaveLength(4);
			const trim = events.find((event) => event.type === "tool_results_trim");
			expect(trim).toMatchObject({ toolCallIds: ["call_1", "call_2"], characters: 4_000 });
			expect(events.some((event) => event.type === "compaction_start")).toBe(false);
			// The session keeps the results whole; the transcript records the trim, and a resumed session sends it.
			expect(JSON.stringify(session.messages)).toContain(`dump-1:${"x".repeat(1_993)}`);
			await session.dispose();
			expect((await entries(sessionFile)).filter((entry) => entry.type === "trim")).toEqual([
				{ type: "trim", toolCallIds: ["call_1", "call_2"], characters: 4_000 },
			]);
			const again = createFauxModel([{ text: "more" }]);
			const resumed = await createAgentSession({
				cwd,
				model: again,
				sessionFile,
				noTools: "all",
				customTools: [dumpTool(2_000)],
			});
			await resumed.prompt("and now?");
			expect(requestLines(again.calls[0]).filter((line) => line.includes("trimmed"))).toHaveLength(2);
			await resumed.dispose();
		}));

	it("summarises when trimming is not enough; the summary request is what the model answers, and resume sends the compacted state", () =>
		withTempDir(async (cwd) => {
			const sessionFile = join(cwd, "session.jsonl");
			const long = (letter: string) => letter.repeat(1_600);
			const turns = [
				{ text: "r1", usage: { input: 10, output: 5 } },
				{ text: "r2", usage: { input: 20, output: 5 } },
				{ text: "r3", usage: { input: 0, output: 5 } },
				{ text: "SUMMARY: the user typed the letters A, B and C." },
				{ text: "r4", usage: { input: 50, output: 5 } },
			];
			const model = smallModel(turns, 0);
			const session = await createAgentSession({
				cwd,
				model,
				sessionFile,
				noTools: "all",
				compaction: { keepRecentTokens: 500 },
			});
			const limit = fixedTokens(session) + 1_600;
			model.contextWindow = Math.ceil(limit / 0.8);
			(turns[2] as { usage: { input: number } }).usage.input = limit;
			const events: AgentSessionEvent[] = [];
			session.subscribe((event) => void events.push(event));
			for (const letter of ["A", "B", "C", "D"]) await session.prompt(long(letter));

			expect(model.calls).toHaveLength(5);
			const summaryRequest = model.calls[3];
			expect(summaryRequest?.systemPrompt).toBe(SUMMARY_SYSTEM_PROMPT);
			expect(summaryRequest?.tools).toBeUndefined();
			const asked = requestLines(summaryRequest)[0] as string;
			for (const part of [long("A"), long("B"), long("C"), "r1", "r3"]) expect(asked).toContain(part);
			expect(asked).not.toContain(long("D"));
			expect(requestLines(model.calls[4])).toEqual([
				`${SUMMARY_INTRO}\n\n<summary>\nSUMMARY: the user typed the letters A, B and C.\n</summary>`,
				`user: ${long("D")}`,
			]);
			const end = events.find((event) => event.type === "compaction_end");
			expect(end).toMatchObject({ reason: "auto", result: { firstKeptIndex: 6, summarizedMessages: 6 } });
			expect(events.find((event) => event.type === "compaction_start")).toMatchObject({
				reason: "auto",
				contextWindow: model.contextWindow,
			});
			await session.dispose();

			const loaded = loadTranscript(sessionFile);
			expect(loaded.messages).toHaveLength(8);
			expect(loaded.compaction?.summary).toEqual({
				text: "SUMMARY: the user typed the letters A, B and C.",
				firstKeptIndex: 6,
			});
			const again = createFauxModel([{ text: "r5" }]);
			const resumed = await createAgentSession({ cwd, model: again, sessionFile, noTools: "all" });
			await resumed.prompt("E");
			expect(requestLines(again.calls[0])).toEqual([
				expect.stringContaining("SUMMARY: the user typed the letters A, B and C."),
				`user: ${long("D")}`,
				"assistant: r4",
				"user: E",
			]);
			await resumed.dispose();
		}));

	it("with auto: false nothing is compacted, even past the threshold", () =>
		withTempDir(async (cwd) => {
			const turns = [
				{ text: "r1", usage: { input: 10, output: 5 } },
				{ text: "r2", usage: { input: 0, output: 5 } },
				{ text: "r3" },
			];
			const model = smallModel(turns, 0);
			const session = await createAgentSession({ cwd, model, noTools: "all", compaction: { auto: false } });
			model.contextWindow = 1_000;
			(turns[1] as { usage: { input: number } }).usage.input = 5_000;
			for (const prompt of ["one", "two", "three"]) await session.prompt(prompt);
			expect(model.calls).toHaveLength(3);
			expect(requestLines(model.calls[2])).toHaveLength(5);
			await session.dispose();
		}));
});
