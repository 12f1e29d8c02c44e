import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession, loadTranscript } from "@gantry/coding-agent";
import { plainTheme } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli.js";
import { exportTranscript } from "../../src/export/write-export.js";
import type { CliIo } from "../../src/io.js";
import { rewindInteractively } from "../../src/tui/rewind-command.js";

let dir: string;
let project: string;
let savedHome: string | undefined;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gantry-rewind-command-"));
	project = join(dir, "project");
	mkdirSync(project);
	mkdirSync(join(dir, "home"));
	// Checkpoints live under ~/.gantry: this test's home, for the session and the command alike.
	savedHome = process.env.HOME;
	process.env.HOME = join(dir, "home");
});
afterEach(() => {
	process.env.HOME = savedHome;
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
	const code = await runCli(["rewind", ...args], io as unknown as CliIo);
	return { code, ...out };
}

async function recordSession(sessionFile: string) {
	const session = await createAgentSession({
		cwd: project,
		sessionFile,
		model: createFauxModel([
			{ toolCalls: [{ name: "write", arguments: { path: "one.txt", content: "1\n" } }] },
			{ text: "wrote one" },
			{ toolCalls: [{ name: "bash", arguments: { command: "echo 2 > two.txt && rm one.txt" } }] },
			{ text: "two, and one gone" },
		]),
	});
	await session.prompt("write one");
	await session.prompt("write two");
	return session;
}

describe("gantry rewind", () => {
	it("lists the prompts with their files, rewinds one, and the transcript resumes from there", async () => {
		const sessionFile = join(dir, "s.jsonl");
		await (await recordSession(sessionFile)).dispose();
		const listed = await run([sessionFile]);
		expect(listed).toMatchObject({ code: 0, stderr: "" });
		expect(listed.stdout).toBe("1. write one  ·  one.txt, two.txt\n2. write two  ·  one.txt, two.txt\n");

		const rewound = await run([sessionFile, "2"]);
		expect(rewound.code).toBe(0);
		expect(rewound.stdout).toBe(
			"Files rewound: 2.\n  restored one.txt\n  removed  two.txt\nThe conversation goes on from before that prompt.\n",
		);
		expect(readFileSync(join(project, "one.txt"), "utf8")).toBe("1\n");
		expect(existsSync(join(project, "two.txt"))).toBe(false);
		expect(loadTranscript(sessionFile).messages).toHaveLength(4);

		const codeOnly = await run([sessionFile, "1", "--code"]);
		expect(codeOnly.stdout).toBe("Files rewound: 1.\n  removed  one.txt\n");
		expect(loadTranscript(sessionFile).messages).toHaveLength(4);

		// The export reads every line (checkpoints and rewinds are not "unreadable") and marks the dropped turns.
		const exported = exportTranscript(sessionFile, join(dir, "s.html"));
		expect(exported.skippedLines).toBe(0);
		const html = readFileSync(join(dir, "s.html"), "utf8");
		expect(html).toContain(
			'<div class="rewound" title="dropped by a later rewind"><section class="user"><pre>write two</pre>',
		);
		expect(html).not.toContain(
			'<div class="rewound" title="dropped by a later rewind"><section class="user"><pre>write one</pre>',
		);
		expect(html).toContain("Rewound code and conversation to before “write two” · 1 restored, 1 removed</div>");
		expect(html).toContain("Rewound code · 0 restored, 1 removed</div>");
	});

	it("names a bad prompt number, a missing session and unknown options", async () => {
		const sessionFile = join(dir, "s.jsonl");
		await (await recordSession(sessionFile)).dispose();
		const bad = await run([sessionFile, "3"]);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain("the prompt number must be 1 to 2");
		expect((await run([])).stderr).toContain("rewind needs a session");
		expect((await run([join(dir, "nope.jsonl")])).stderr).toContain("no such transcript file");
		expect((await run([sessionFile, "--bogus"])).code).toBe(2);
		expect((await run(["--help"])).stdout).toContain("gantry rewind SESSION N --code");
	});
});

describe("/rewind", () => {
	it("asks which prompt and what, rewinds, and hands back the prompt for the editor", async () => {
		const session = await recordSession(join(dir, "i.jsonl"));
		const questions: { title: string; options: string[] }[] = [];
		const answers = ["1. write one  ·  one.txt, two.txt", "Code and conversation"];
		const ui = {
			select: async (title: string, options: string[]) => {
				questions.push({ title, options });
				return answers.shift();
			},
		};
		const printed: string[] = [];
		const prompt = await rewindInteractively(session, ui as never, plainTheme, (lines) => printed.push(...lines));
		expect(questions[0]?.options).toEqual(["2. write two  ·  one.txt, two.txt", "1. write one  ·  one.txt, two.txt"]);
		expect(questions[1]?.options).toEqual(["Code and conversation", "Conversation only", "Code only"]);
		expect(prompt).toBe("write one");
		expect(printed).toEqual([
			"Files rewound: 1.",
			"  removed  two.txt",
			"The conversation goes on from before that prompt.",
		]);
		expect(session.messages).toHaveLength(0);
		expect(existsSync(join(project, "one.txt"))).toBe(false);
		await session.dispose();
	});
});
