import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";

let cwd: string;
beforeEach(async () => {
	cwd = await mkdtemp(join(tmpdir(), "gantry-session-test-"));
});
afterEach(async () => {
	await rm(cwd, { recursive: true, force: true });
});

describe("session smoke", () => {
	it("runs builtin tools for real", async () => {
		await writeFile(join(cwd, "a.txt"), "hello\n");
		const model = createFauxModel([
			{
				toolCalls: [
					{ name: "read", arguments: { path: "a.txt" } },
					{ name: "write", arguments: { path: "b.txt", content: "x" } },
				],
			},
			{ text: "done" },
		]);
		const session = await createAgentSession({ cwd, model });
		expect(session.getActiveToolNames()).toEqual(["read", "bash", "edit", "write"]);
		await session.prompt("go");
		expect(await readFile(join(cwd, "b.txt"), "utf8")).toBe("x");
		const results = session.messages.filter((m) => (m as { role: string }).role === "toolResult");
		expect(results).toHaveLength(2);
		expect(JSON.stringify(results[0])).toContain("hello");
		expect(model.calls[0]?.tools?.map((t) => t.name)).toEqual(["read", "bash", "edit", "write"]);
		expect(model.calls[0]?.systemPrompt).toContain("Available tools");
		await session.dispose();
	});
});
