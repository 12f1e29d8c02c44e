import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { plainTheme } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli.js";
import type { CliIo } from "../../src/io.js";
import { runSlashCommand } from "../../src/tui/slash-commands.js";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gantry-export-command-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	const out = { stdout: "", stderr: "" };
	const stream = (key: "stdout" | "stderr") => ({
		write(text: string) {
			out[key] += text;
			return true;
		},
	});
	const io = { stdin: process.stdin, stdout: stream("stdout"), stderr: stream("stderr"), env: {} };
	const code = await runCli(["export", ...args], io as unknown as CliIo);
	return { code, ...out };
}

describe("gantry export", () => {
	it("names a missing transcript, a file that is not one, and a missing argument", async () => {
		const missing = await run([join(dir, "nope.jsonl")]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/^gantry: Cannot read .*nope\.jsonl: ENOENT/);
		writeFileSync(join(dir, "notes.jsonl"), '{"hello":1}\n');
		const wrong = await run([join(dir, "notes.jsonl")]);
		expect(wrong.code).toBe(1);
		expect(wrong.stderr).toContain("is not a Gantry transcript: it has no session header line");
		expect(existsSync(join(dir, "notes.html"))).toBe(false);
		const none = await run([]);
		expect(none.code).toBe(2);
		expect(none.stderr).toContain("export needs a transcript");
		expect((await run(["a.jsonl", "--bogus"])).code).toBe(2);
		expect((await run(["a.jsonl", "-o"])).code).toBe(2);
	});

	it("writes -o FILE, counts torn lines, and refuses to overwrite the transcript", async () => {
		const transcript = join(dir, "s.jsonl");
		writeFileSync(
			transcript,
			`${JSON.stringify({ type: "session", version: 1, id: "x", cwd: dir, createdAt: "2026-01-01T00:00:00Z" })}\n` +
				`${JSON.stringify({ type: "message", message: { role: "user", content: "a <b>bold</b> prompt", timestamp: 0 } })}\n{"type":"mess`,
		);
		const result = await run([transcript, "-o", join(dir, "out.html")]);
		expect(result.code).toBe(0);
		expect(result.stderr).toContain("1 unreadable line(s) left out");
		const html = readFileSync(join(dir, "out.html"), "utf8");
		expect(html).toContain("a &#60;b&#62;bold&#60;/b&#62; prompt");
		const same = await run([transcript, "-o", transcript]);
		expect(same.code).toBe(1);
		expect(same.stderr).toContain("would overwrite the transcript");
		expect(readFileSync(transcript, "utf8")).toContain('{"type":"mess');
	});
});

describe("/export", () => {
	it("writes the running session next to its transcript, or where it is told", async () => {
		const session = await createAgentSession({
			cwd: dir,
			sessionFile: join(dir, "live.jsonl"),
			model: createFauxModel([{ text: "Hi there." }]),
		});
		await session.prompt("Say hi");
		const printed: string[] = [];
		const context = { session, theme: plainTheme, print: (lines: string[]) => printed.push(...lines) };
		expect(runSlashCommand("/export", context)).toBe("continue");
		expect(printed.at(-1)).toBe(`Exported to ${join(dir, "live.html")}`);
		expect(readFileSync(join(dir, "live.html"), "utf8")).toContain("Hi there.");
		runSlashCommand("/export shared.html", context);
		expect(readFileSync(join(dir, "shared.html"), "utf8")).toContain("Say hi");
		runSlashCommand("/export a.html b.html", context);
		expect(printed.at(-1)).toBe("Usage: /export, /export <file.html>");
		await session.dispose();

		const memory = await createAgentSession({ cwd: dir, model: createFauxModel([]) });
		runSlashCommand("/export", { ...context, session: memory });
		expect(printed.at(-1)).toContain("no transcript file");
		await memory.dispose();
	});

	it("marks a blocked call as blocked, and a call to an unknown tool as not run, from the transcript's own words", async () => {
		const session = await createAgentSession({
			cwd: dir,
			sessionFile: join(dir, "blocked.jsonl"),
			model: createFauxModel([
				{
					toolCalls: [
						{ id: "denied", name: "write", arguments: { path: "x.txt", content: "x" } },
						{ id: "missing", name: "no_such_tool", arguments: {} },
					],
				},
				{ text: "Done." },
			]),
			extensions: [
				(api) =>
					api.on("tool_call", (event) =>
						event.toolName === "write" ? { block: true, reason: "No writes today." } : undefined,
					),
			],
		});
		await session.prompt("Write x");
		await session.dispose();
		expect((await run([join(dir, "blocked.jsonl")])).code).toBe(0);
		const html = readFileSync(join(dir, "blocked.html"), "utf8");
		expect(html).toMatch(/No writes today\.[\s\S]*✗ blocked/);
		expect(html).toMatch(/no_such_tool not found[\s\S]*✗ not run/);
	});
});
