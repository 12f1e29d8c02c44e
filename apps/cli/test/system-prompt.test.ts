import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { type CliWorkspace, useCliFixture } from "./helpers/cli-fixture.js";
import { requestBody } from "./helpers/recorded-requests.js";
import { runCli } from "./helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

/** The repository is the project folder (with `.git`); gantry works in its `web` subfolder. */
let web: string;
beforeEach(() => {
	web = join(workspace.project, "web");
	mkdirSync(join(workspace.project, ".git"));
	mkdirSync(web);
	mkdirSync(join(workspace.home, ".gantry"));
	writeFileSync(join(workspace.root, "AGENTS.md"), "ABOVE THE REPOSITORY\n");
	writeFileSync(join(workspace.home, ".gantry", "AGENTS.md"), "Call me Ada.\n");
	writeFileSync(join(workspace.project, "AGENTS.md"), "Run pnpm test.\n");
	writeFileSync(join(web, "CLAUDE.md"), "Web code uses tabs.\n");
});

function gantry(args: string[]) {
	return runCli(["--base-url", server.openaiBaseUrl, "--model", "scripted", "--no-session", ...args], {
		cwd: web,
		home: workspace.home,
	});
}

function systemPrompt(index = 0): string {
	const [first] = requestBody(server, index).messages as { role: string; content: string }[];
	expect(first?.role).toBe("system");
	return first!.content;
}

describe("the system prompt of a run", () => {
	it("holds ~/.gantry/AGENTS.md, then AGENTS.md and CLAUDE.md from the repository root down, each under its path", async () => {
		server.enqueue({ text: "ok" });
		expect((await gantry(["hi"])).code).toBe(0);
		const prompt = systemPrompt();
		const user = prompt.indexOf(`## ${join(workspace.home, ".gantry", "AGENTS.md")}\n\nCall me Ada.`);
		const root = prompt.indexOf(`## ${join(workspace.project, "AGENTS.md")}\n\nRun pnpm test.`);
		const here = prompt.indexOf(`## ${join(web, "CLAUDE.md")}\n\nWeb code uses tabs.`);
		expect(user).toBeGreaterThan(0);
		expect(root).toBeGreaterThan(user);
		expect(here).toBeGreaterThan(root);
		expect(prompt).not.toContain("ABOVE THE REPOSITORY");
	});

	it("leaves them out with --no-context-files", async () => {
		server.enqueue({ text: "ok" });
		expect((await gantry(["--no-context-files", "hi"])).code).toBe(0);
		expect(systemPrompt()).not.toContain("Call me Ada.");
		expect(systemPrompt()).not.toContain("Run pnpm test.");
	});

	it("replaces the opening with --system-prompt @FILE and adds --append-system-prompt at the end", async () => {
		writeFileSync(join(workspace.root, "persona.md"), "You are a terse reviewer.\n");
		server.enqueue({ text: "ok" }, { text: "ok" });
		const run = await runCli(
			[
				"--base-url",
				server.openaiBaseUrl,
				"--model",
				"scripted",
				"--no-session",
				"--cwd",
				web,
				"--system-prompt",
				"@persona.md",
				"--append-system-prompt",
				"Answer in French.",
				"hi",
			],
			{ cwd: workspace.root, home: workspace.home },
		);
		expect(run.code).toBe(0);
		const prompt = systemPrompt();
		expect(prompt.startsWith("You are a terse reviewer.")).toBe(true);
		expect(prompt).not.toContain("You are an expert coding assistant");
		// The tools, the instructions and the working folder stay.
		expect(prompt).toContain("Available tools:");
		expect(prompt).toContain("Run pnpm test.");
		expect(prompt).toContain(`Current working directory: ${web}`);
		expect(prompt.endsWith("Answer in French.")).toBe(true);

		expect((await gantry(["--append-system-prompt", "@@literal", "hi"])).code).toBe(0);
		expect(systemPrompt(1).endsWith("@literal")).toBe(true);
	});

	it("cuts instruction files past 32 KiB and says so on stderr", async () => {
		writeFileSync(join(workspace.project, "AGENTS.md"), `${"x".repeat(99)}\n`.repeat(400));
		server.enqueue({ text: "ok" });
		const run = await gantry(["hi"]);
		expect(run.code).toBe(0);
		expect(run.stderr).toContain(
			`gantry: ${join(workspace.project, "AGENTS.md")}: 7,300 bytes left out of the system prompt (instruction files may take 32 KiB together)`,
		);
		expect(run.stderr).toContain(`gantry: ${join(web, "CLAUDE.md")}: 20 bytes left out of the system prompt`);
		expect(systemPrompt()).toContain("[7,300 more bytes of this file are not shown");
	});
});
