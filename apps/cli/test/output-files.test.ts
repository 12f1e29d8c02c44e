import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { assert, describe, expect, it } from "vitest";
import { pruneOutputFolders } from "../src/output-files.js";
import { sessionFolder, sessionsRoot } from "../src/sessions.js";
import { type CliWorkspace, useCliFixture } from "./helpers/cli-fixture.js";
import { requestBody } from "./helpers/recorded-requests.js";
import { runCli } from "./helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

describe("full-output files", () => {
	it("are kept with the session after a print run, where the tool result says", async () => {
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "seq 1 30000" } }] }, { text: "Counted." });
		const run = await runCli(["--base-url", server.openaiBaseUrl, "--model", "scripted", "--yes", "count"], {
			cwd: workspace.project,
			home: workspace.home,
		});
		expect(run.code).toBe(0);
		const result = (requestBody(server, 1).messages as { role: string; content: string }[]).find(
			(message) => message.role === "tool",
		);
		const path = /Full output: ([^\s\]]+)/.exec(String(result?.content))?.[1];
		expect(path).toBeDefined();
		const folder = sessionFolder(workspace.project, workspace.home);
		expect(path?.startsWith(`${folder}/`)).toBe(true);
		const [transcript] = readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
		assert.isDefined(transcript);
		expect(path).toContain(`${transcript.replace(/\.jsonl$/, "")}.output/`);
		expect(readFileSync(path as string, "utf8").split("\n")[29_999]).toBe("30000");
		expect(run.stderr).toContain(`full output: ${path}`);
	});

	it("leave no empty folder behind when a run wrote none", async () => {
		server.enqueue({ text: "Short." });
		const run = await runCli(["--base-url", server.openaiBaseUrl, "--model", "scripted", "hi"], {
			cwd: workspace.project,
			home: workspace.home,
		});
		expect(run.code).toBe(0);
		expect(
			readdirSync(sessionFolder(workspace.project, workspace.home)).filter((name) => name.endsWith(".output")),
		).toEqual([]);
	});

	it("are pruned by age, then oldest first above the size limit; transcripts stay", () => {
		const root = sessionsRoot(workspace.home);
		const folder = join(root, "some-project-12345678");
		const output = join(folder, "2026-01-01T00-00-00-000Z_aaaaaa.output");
		mkdirSync(output, { recursive: true });
		writeFileSync(join(folder, "2026-01-01T00-00-00-000Z_aaaaaa.jsonl"), "{}\n");
		const now = Date.now();
		const file = (name: string, bytes: number, ageDays: number) => {
			const path = join(output, name);
			writeFileSync(path, "x".repeat(bytes));
			const time = new Date(now - ageDays * 24 * 60 * 60 * 1000);
			utimesSync(path, time, time);
			return path;
		};
		const ancient = file("ancient.log", 10, 30);
		const old = file("old.log", 600, 3);
		const recent = file("recent.log", 600, 1);
		const result = pruneOutputFolders(root, { maxAgeMs: 14 * 24 * 60 * 60 * 1000, maxBytes: 1000, now });
		expect(result).toEqual({ removedFiles: 2, removedBytes: 610 });
		expect([existsSync(ancient), existsSync(old), existsSync(recent)]).toEqual([false, false, true]);
		expect(existsSync(join(folder, "2026-01-01T00-00-00-000Z_aaaaaa.jsonl"))).toBe(true);
		pruneOutputFolders(root, { maxAgeMs: 0, now: now + 1000 });
		expect(existsSync(output)).toBe(false);
	});
});
