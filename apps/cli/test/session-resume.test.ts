import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { assert, describe, expect, it } from "vitest";
import { sessionFolder } from "../src/sessions.js";
import { type CliWorkspace, useCliFixture } from "./helpers/cli-fixture.js";
import { requestBody } from "./helpers/recorded-requests.js";
import { runScriptedCli } from "./helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

const gantry = (args: string[]) => runScriptedCli(server, workspace, args);

function sent(index: number): unknown[] {
	const messages = requestBody(server, index).messages as { role: string; content: unknown }[];
	return messages.filter((message) => message.role !== "system").map((message) => message.content);
}

const SESSION_LINE = /^Session: (\/\S+\.jsonl) \(go on with: gantry --resume ([0-9a-f]{8})\)\n$/;

/** Writes a transcript into the working folder's session folder by hand (the id is the test's choice). */
function writeTranscript(name: string, id: string, prompts: string[], cost = 0): string {
	const folder = sessionFolder(workspace.project, workspace.home);
	mkdirSync(folder, { recursive: true });
	const path = join(folder, name);
	const lines = [{ type: "session", version: 1, id, cwd: workspace.project, createdAt: "2026-01-01T00:00:00.000Z" }];
	for (const prompt of prompts) {
		lines.push({ type: "message", message: { role: "user", content: prompt, timestamp: 1 } } as never);
		lines.push({
			type: "message",
			message: { role: "assistant", content: [{ type: "text", text: "ok" }], usage: { cost: { total: cost } } },
		} as never);
	}
	writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
	return path;
}

describe("sessions to come back to", () => {
	it("ends print mode with one stderr line naming the session, and --resume ID continues it", async () => {
		server.enqueue({ text: "Noted: the cat is called Tom." }, { text: "Tom." });
		const first = await gantry(["Remember: my cat is Tom."]);
		expect(first.code).toBe(0);
		expect(first.stdout).toBe("Noted: the cat is called Tom.\n");
		const [, path, id] = SESSION_LINE.exec(first.stderr) ?? [];
		assert.isDefined(path);
		assert.isDefined(id);
		expect(path.startsWith(sessionFolder(workspace.project, workspace.home))).toBe(true);

		const second = await gantry(["--resume", id.slice(0, 4), "-p", "What is my cat called?"]);
		expect(second.code).toBe(0);
		expect(second.stdout).toBe("Tom.\n");
		expect(sent(1)).toEqual(["Remember: my cat is Tom.", "Noted: the cat is called Tom.", "What is my cat called?"]);
		// The same transcript goes on: the line names the same file.
		expect(SESSION_LINE.exec(second.stderr)?.[1]).toBe(path);
	});

	it("keeps JSON mode's stdout JSON and says nothing with --no-session", async () => {
		server.enqueue({ text: "one" }, { text: "two" });
		const json = await gantry(["--mode", "json", "hi"]);
		expect(json.code).toBe(0);
		for (const line of json.stdout.trimEnd().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
		expect(json.stderr).toMatch(SESSION_LINE);
		const none = await gantry(["--no-session", "hi"]);
		expect(none.code).toBe(0);
		expect(none.stderr).toBe("");
	});

	it("lists this folder's sessions newest first, as a table and as JSON", async () => {
		const old = writeTranscript("2026-01-01_a.jsonl", "11111111-aaaa", ["Fix the build", "and the tests"], 0.25);
		const recent = writeTranscript("2026-01-02_b.jsonl", "22222222-bbbb", ["Why is\nthe cart total wrong?"], 0.5);
		writeFileSync(join(sessionFolder(workspace.project, workspace.home), "junk.jsonl"), "not a transcript\n");
		utimesSync(old, new Date("2026-01-01T10:00:00Z"), new Date("2026-01-01T10:00:00Z"));
		utimesSync(recent, new Date("2026-01-02T10:00:00Z"), new Date("2026-01-02T10:00:00Z"));

		const table = await gantry(["sessions"]);
		expect(table.code).toBe(0);
		const lines = table.stdout.trimEnd().split("\n");
		expect(lines[0]).toMatch(/^ID\s+LAST ACTIVE\s+TURNS\s+COST\s+FIRST PROMPT$/);
		expect(lines[1]).toMatch(/^22222222 {2}2026-01-0\d \d\d:\d\d {2}1 {6}\$0\.5000 {2}Why is$/);
		expect(lines[2]).toMatch(/^11111111 {2}2026-01-0\d \d\d:\d\d {2}2 {6}\$0\.5000 {2}Fix the build$/);
		expect(lines).toHaveLength(4);

		const json = await gantry(["sessions", "--json"]);
		expect(JSON.parse(json.stdout)).toEqual([
			expect.objectContaining({
				id: "22222222-bbbb",
				shortId: "22222222",
				path: recent,
				turns: 1,
				messages: 2,
				cost: 0.5,
			}),
			expect.objectContaining({ id: "11111111-aaaa", path: old, turns: 2, firstPrompt: "Fix the build" }),
		]);
		expect(server.requests).toHaveLength(0);
	});

	it("says so when an id matches no session or several, and takes a transcript path", async () => {
		writeTranscript("a.jsonl", "abc11111", ["first"]);
		const other = writeTranscript("b.jsonl", "abc22222", ["second"]);
		const unknown = await gantry(["--resume", "fff", "hi"]);
		expect(unknown.code).toBe(2);
		expect(unknown.stderr).toBe(
			"gantry: --resume fff: no session of this folder has that id (gantry sessions lists them; for another folder's, pass its transcript path) (see gantry --help)\n",
		);
		const ambiguous = await gantry(["--resume", "abc", "hi"]);
		expect(ambiguous.code).toBe(2);
		expect(ambiguous.stderr).toMatch(
			/^gantry: --resume abc: 2 sessions of this folder start with it \((abc11111, abc22222|abc22222, abc11111)\); give more of the id/,
		);
		expect(server.requests).toHaveLength(0);

		server.enqueue({ text: "Continued." });
		const byPath = await gantry(["--resume", other, "go on"]);
		expect(byPath.code).toBe(0);
		expect(sent(0)).toEqual(["second", "ok", "go on"]);
		const missing = await gantry(["--resume", "./nope.jsonl", "hi"]);
		expect(missing.stderr).toContain("--resume ./nope.jsonl: no such transcript file");
	});
});
