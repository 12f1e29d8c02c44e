import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorkspace, runCli } from "./helpers/run-cli.js";

let workspace: ReturnType<typeof makeWorkspace>;

beforeEach(() => {
	workspace = makeWorkspace();
});
afterEach(() => {
	workspace.remove();
});

function gantry(args: string[], env?: Record<string, string>) {
	return runCli(args, { cwd: workspace.project, home: workspace.home, env });
}

describe("gantry command line", () => {
	it("prints help and the version", async () => {
		const help = await gantry(["--help"]);
		expect(help.code).toBe(0);
		for (const option of ["--provider", "--base-url", "--exclude-tools", "--extension", "--continue", "--demo"]) {
			expect(help.stdout).toContain(option);
		}
		const version = await gantry(["--version"]);
		expect(version.code).toBe(0);
		expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
	});

	it.each([
		[["--frobnicate"], "Unknown option --frobnicate"],
		[["--mode", "yaml", "hi"], '--mode must be one of interactive, print, json (got "yaml")'],
		[["--model"], "--model needs a value"],
		[["--tools", ",", "hi"], "--tools needs at least one tool name"],
		[["--json", "hi"], "--json only goes with `gantry tools`"],
		[["--session", "a.jsonl", "--continue", "hi"], "Use one of --session, --continue, not several"],
		[["--resume", "abc", "--continue", "hi"], "Use one of --continue, --resume, not several"],
		[["--no-session", "--resume", "abc", "hi"], "--no-session cannot be combined with --resume"],
		[["--resume", "-p", "hi"], "--resume without an id lists sessions to pick from, which needs interactive mode"],
		[["--resume", "nope", "hi"], "--resume nope: this folder has no saved sessions yet"],
		[["--system-prompt", "@missing.md", "hi"], "--system-prompt @missing.md: cannot read missing.md (no such file)"],
		[["sessions", "extra"], 'gantry sessions takes no arguments (got "extra")'],
		[["--base-url", "localhost:11434", "--model", "m", "hi"], "--base-url must be an http(s) URL"],
		[["--base-url", "http://127.0.0.1:9/v1", "hi"], "--base-url needs --model"],
		[["--cwd", "no/such/folder", "hi"], "--cwd no/such/folder: no such folder"],
		[["--provider", "acme", "hi"], 'Unknown provider "acme"'],
		[["--model", "gpt-0", "hi"], 'Unknown model "gpt-0"'],
		[["-p", "--mode", "json", "hi"], "-p/--print cannot be combined with --mode json"],
		[["tools", "extra"], 'gantry tools takes no arguments (got "extra")'],
	])("exits with code 2 and a clear message for %j", async (args, message) => {
		const run = await gantry(args);
		expect(run.code).toBe(2);
		expect(run.stdout).toBe("");
		expect(run.stderr).toContain(message);
		expect(run.stderr.trim().split("\n")).toHaveLength(1);
	});

	it("says which variable to set when the key is missing", async () => {
		const openai = await gantry(["hello"]);
		expect(openai.code).toBe(1);
		expect(openai.stderr).toBe("gantry: No API key for openai: set OPENAI_API_KEY or pass --api-key\n");
		const anthropic = await gantry(["--provider", "anthropic", "hello"]);
		expect(anthropic.code).toBe(1);
		expect(anthropic.stderr).toBe("gantry: No API key for anthropic: set ANTHROPIC_API_KEY or pass --api-key\n");
	});

	it("needs a prompt when stdin brings none", async () => {
		const run = await gantry(["--api-key", "sk-test"]);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain("No prompt");
	});
});
