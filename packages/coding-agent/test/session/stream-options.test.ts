import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxModel, type StreamOptions, stream } from "@gantry/ai";
import { afterEach, assert, beforeEach, describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";

let cwd: string;
beforeEach(async () => {
	cwd = await mkdtemp(join(tmpdir(), "gantry-stream-options-"));
});
afterEach(async () => {
	await rm(cwd, { recursive: true, force: true });
});

/** A `streamFn` that records each request's options and then streams the faux model. */
function recordingStream(seen: StreamOptions[]): typeof stream {
	return (model, context, options) => {
		seen.push({ ...options });
		return stream(model, context, options);
	};
}

describe("the session's request options", () => {
	it("sends one prompt-cache key, the reasoning level and the idle timeout with every request", async () => {
		const seen: StreamOptions[] = [];
		const session = await createAgentSession({
			cwd,
			model: createFauxModel([{ toolCalls: [{ name: "read", arguments: { path: "missing.txt" } }] }, { text: "ok" }]),
			reasoning: "high",
			idleTimeoutMs: 5_000,
			streamFn: recordingStream(seen),
		});
		await session.prompt("go");
		await session.dispose();
		expect(seen).toHaveLength(2);
		expect(seen.map((options) => options.sessionId)).toEqual([session.sessionId, session.sessionId]);
		expect(session.sessionId).toMatch(/\S{16,}/);
		expect(seen[0]).toMatchObject({ reasoning: "high", idleTimeoutMs: 5_000 });
	});

	it("leaves out what it was not given, so a streamFn's own defaults still apply", async () => {
		const seen: StreamOptions[] = [];
		const session = await createAgentSession({
			cwd,
			model: createFauxModel([{ text: "ok" }]),
			streamFn: recordingStream(seen),
		});
		await session.prompt("go");
		await session.dispose();
		const [options] = seen;
		assert.isDefined(options);
		expect(Object.keys(options).filter((key) => key === "reasoning" || key === "idleTimeoutMs")).toEqual([]);
	});

	it("keeps the key of a resumed transcript, and gives other sessions their own", async () => {
		const sessionFile = join(cwd, "session.jsonl");
		const ids: string[] = [];
		for (let run = 0; run < 2; run++) {
			const session = await createAgentSession({ cwd, sessionFile, model: createFauxModel([{ text: "hi" }]) });
			await session.prompt("hello");
			ids.push(session.sessionId);
			await session.dispose();
		}
		const other = await createAgentSession({ cwd, model: createFauxModel([]) });
		await other.dispose();
		expect(ids[1]).toBe(ids[0]);
		expect(other.sessionId).not.toBe(ids[0]);
	});
});
