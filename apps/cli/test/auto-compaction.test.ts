import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { describe, expect, it } from "vitest";
import { type CliWorkspace, useCliFixture } from "./helpers/cli-fixture.js";
import { runScriptedCli } from "./helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

const gantry = (args: string[]) => runScriptedCli(server, workspace, args);

type Sent = { role: string; content: unknown };
const contents = (index: number) =>
	((server.requests[index]?.body.messages ?? []) as Sent[])
		.filter((message) => message.role !== "system")
		.map((message) => message.content);

describe("automatic compaction in a CLI session", () => {
	it("a request past 80 % of the window (128k for an OpenAI-compatible server) is sent as a summary and the recent turn", async () => {
		const long = `Here is the log:\n${"line of a very long log\n".repeat(4_000)}`;
		server.enqueue(
			{ text: "I read the log." },
			// The server says the second request took 110,000 tokens: the next one is past 102,400.
			{ text: "Noted.", usage: { input: 110_000, output: 10 } },
			{ text: "SUMMARY: the user sent a long log and asked to remember it." },
			{ text: "Done." },
		);
		expect((await gantry([long])).code).toBe(0);
		expect((await gantry(["-c", "Remember it."])).code).toBe(0);
		const third = await gantry(["-c", "What next?"]);
		expect(third.code).toBe(0);
		expect(third.stderr).toMatch(/Compacting the conversation \(~1\d\d,\d{3} tokens of a 128,000-token window\)/);
		expect(third.stderr).toContain("Compacted: 2 earlier messages are sent as a summary");
		const summaryRequest = server.requests[2]?.body as { tools?: unknown };
		expect(summaryRequest.tools).toBeUndefined();
		expect(JSON.stringify(contents(2))).toContain("line of a very long log");
		expect(contents(3)).toEqual([
			expect.stringContaining("SUMMARY: the user sent a long log and asked to remember it."),
			"Remember it.",
			"Noted.",
			"What next?",
		]);
		expect(third.stdout.trim()).toBe("Done.");
	});
});
