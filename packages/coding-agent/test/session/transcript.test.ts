import { appendFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import type { Extension, ExtensionAPI } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { createAgentSession, loadTranscript, readRecordedModel } from "../../src/index.js";
import { echoTool, withTempDir } from "./helpers.js";

describe("transcript", () => {
	it("writes a header, every message and tool-set changes, and resumes from them", () =>
		withTempDir(async (cwd) => {
			const sessionFile = join(cwd, "session.jsonl");
			const first = await createAgentSession({
				cwd,
				model: createFauxModel([{ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "listed" }]),
				sessionFile,
			});
			first.setActiveToolsByName(["read", "ls"]);
			await first.prompt("list");
			await first.dispose();

			const lines = (await readFile(sessionFile, "utf8"))
				.trim()
				.split("\n")
				.map((line) => JSON.parse(line));
			expect(lines[0]).toMatchObject({ type: "session", version: 1, cwd });
			expect(lines.filter((entry) => entry.type === "message").map((entry) => entry.message.role)).toEqual([
				"user",
				"assistant",
				"toolResult",
				"assistant",
			]);
			expect(lines.filter((entry) => entry.type === "tools")).toEqual([
				{ type: "tools", added: ["read", "bash", "edit", "write"], removed: [] },
				{ type: "tools", added: ["ls"], removed: ["bash", "edit", "write"] },
			]);

			const model = createFauxModel([{ text: "again" }]);
			const resumed = await createAgentSession({ cwd, model, sessionFile });
			expect(resumed.messages).toHaveLength(4);
			expect(resumed.getActiveToolNames()).toEqual(["read", "ls"]);
			await resumed.prompt("more");
			expect(model.calls[0]?.messages).toHaveLength(5);
			await resumed.dispose();
		}));

	it("ignores a torn last line and loses nothing before it", () =>
		withTempDir(async (cwd) => {
			const sessionFile = join(cwd, "torn.jsonl");
			const first = await createAgentSession({ cwd, model: createFauxModel([{ text: "one" }]), sessionFile });
			await first.prompt("hello");
			await first.dispose();
			await appendFile(sessionFile, '{"type":"message","message":{"role":"user","cont');
			const loaded = loadTranscript(sessionFile);
			expect(loaded.skippedLines).toBe(1);
			expect(loaded.messages).toHaveLength(2);
			const resumed = await createAgentSession({ cwd, model: createFauxModel([{ text: "two" }]), sessionFile });
			expect(resumed.messages).toHaveLength(2);
			await resumed.prompt("again");
			expect(resumed.messages).toHaveLength(4);
			await resumed.dispose();
		}));

	it("records a switch of the model, which a loaded transcript reports and a resume with another model updates", () =>
		withTempDir(async (cwd) => {
			const sessionFile = join(cwd, "model.jsonl");
			const modelEntries = async () =>
				(await readFile(sessionFile, "utf8"))
					.trim()
					.split("\n")
					.map((line) => JSON.parse(line))
					.filter((entry) => entry.type === "model")
					.map(({ provider, id }) => `${provider}/${id}`);
			const first = createFauxModel([{ text: "from one" }], { id: "one" });
			const second = createFauxModel([{ text: "from two" }], { id: "two" });
			const session = await createAgentSession({ cwd, model: first, sessionFile });
			session.setModel(first);
			expect(await modelEntries()).toEqual([]);
			expect(loadTranscript(sessionFile).model).toBeUndefined();
			expect(readRecordedModel(sessionFile)).toBeUndefined();
			session.setModel(second);
			session.setModel(second);
			await session.prompt("hello");
			expect([first.calls.length, second.calls.length]).toEqual([0, 1]);
			expect(session.model.id).toBe("two");
			await session.dispose();
			expect(await modelEntries()).toEqual(["faux/two"]);
			expect(loadTranscript(sessionFile).model).toEqual({ provider: "faux", id: "two" });

			// Resumed with the recorded model: nothing new. With another one: that one is the session's now.
			await (await createAgentSession({ cwd, model: second, sessionFile })).dispose();
			expect(await modelEntries()).toEqual(["faux/two"]);
			const third = createFauxModel([], { id: "three" });
			await (await createAgentSession({ cwd, model: third, sessionFile })).dispose();
			expect(await modelEntries()).toEqual(["faux/two", "faux/three"]);
			expect(loadTranscript(sessionFile).model).toEqual({ provider: "faux", id: "three" });
			expect(readRecordedModel(sessionFile)).toEqual({ provider: "faux", id: "three" });
			expect(loadTranscript(sessionFile).skippedLines).toBe(0);
		}));

	it("keeps restored tools that are not registered yet pending until they register, and drops them at the first run", () =>
		withTempDir(async (cwd) => {
			const sessionFile = join(cwd, "pending.jsonl");
			const late = echoTool("late", { defaultActive: false });
			const ghost = echoTool("ghost", { defaultActive: false });
			const first = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				noTools: "builtin",
				customTools: [late.definition, ghost.definition],
			});
			first.setActiveToolsByName(["late", "ghost"]);
			await first.dispose();
			// Write a transcript by hand that names both tools as active.
			await appendFile(
				sessionFile,
				`${JSON.stringify({ type: "session", version: 1, id: "x", cwd, createdAt: new Date().toISOString() })}\n${JSON.stringify({ type: "tools", added: ["late", "ghost"], removed: [] })}\n`,
			);
			let api: ExtensionAPI | undefined;
			const lateLoader: Extension = (extensionApi) => {
				api = extensionApi;
			};
			const model = createFauxModel([{ text: "ok" }, { text: "ok" }]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				sessionFile,
				extensions: [lateLoader],
			});
			expect(session.getActiveToolNames()).toEqual([]);
			api?.registerTool(late.definition);
			expect(session.getActiveToolNames()).toEqual(["late"]);
			await session.prompt("first run");
			api?.registerTool(ghost.definition);
			// ghost was dropped from pending at the first run: registering it later does not activate it.
			expect(session.getActiveToolNames()).toEqual(["late"]);
			await session.dispose();
		}));

	it("removes its temp folder on dispose", () =>
		withTempDir(async (cwd) => {
			const session = await createAgentSession({ cwd, model: createFauxModel([]) });
			const { existsSync } = await import("node:fs");
			expect(existsSync(session.tempDir)).toBe(true);
			await session.dispose();
			expect(existsSync(session.tempDir)).toBe(false);
		}));
});
