import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { describe, expect, it } from "vitest";
import { type CliWorkspace, useCliFixture } from "../helpers/cli-fixture.js";
import { runScriptedCli } from "../helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

const gantry = (args: string[]) => runScriptedCli(server, workspace, ["--mode", "json", ...args]);

type JsonEvent = {
	type: string;
	toolName?: string;
	message?: { role: string; content?: unknown };
	result?: { content: unknown };
};

function parseLines(stdout: string): JsonEvent[] {
	return stdout
		.trimEnd()
		.split("\n")
		.map((line) => JSON.parse(line) as JsonEvent);
}

describe("--mode json", () => {
	it("writes every session event as one JSON line, in order", async () => {
		writeFileSync(join(workspace.project, "a.txt"), "alpha\n");
		server.enqueue(
			{ text: "Reading.", toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] },
			{ text: "It says alpha." },
		);
		const run = await gantry(["What is in a.txt?"]);
		expect(run.code).toBe(0);
		const events = parseLines(run.stdout);
		const types = events.map((event) => event.type).filter((type) => type !== "message_update");
		expect(types).toEqual([
			"agent_start",
			"turn_start",
			"message_start",
			"message_end",
			"message_start",
			"message_end",
			"tool_execution_start",
			"tool_execution_end",
			"message_start",
			"message_end",
			"turn_end",
			"turn_start",
			"message_start",
			"message_end",
			"turn_end",
			"agent_end",
		]);
		expect(events.filter((event) => event.type === "message_update").length).toBeGreaterThan(1);
		const toolEnd = events.find((event) => event.type === "tool_execution_end");
		expect(JSON.stringify(toolEnd?.result?.content)).toContain("alpha");
		const roles = events.filter((event) => event.type === "message_end").map((event) => event.message?.role);
		expect(roles).toEqual(["user", "assistant", "toolResult", "assistant"]);
	});

	it("ends with exit code 1 and the message on stderr when the model fails", async () => {
		const failure = { status: 401, message: "Incorrect API key provided" };
		server.enqueue(failure);
		const run = await gantry(["hi"]);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("Incorrect API key provided");
		const last = parseLines(run.stdout).at(-1);
		expect(last?.type).toBe("agent_end");
	});
});
