import { describe, expect, it } from "vitest";
import { parseCliArguments } from "../src/args.js";
import { CliError } from "../src/errors.js";

describe("parseCliArguments", () => {
	it("reads every option, in both --name value and --name=value forms", () => {
		const options = parseCliArguments([
			"--provider=openai",
			"--model",
			"qwen3:8b",
			"--base-url",
			"http://127.0.0.1:11434/v1",
			"--api-key",
			"sk-x",
			"--tools",
			"read, grep,ls",
			"--exclude-tools=bash",
			"-e",
			"a.ts",
			"--extension",
			"b.ts",
			"--session",
			"s.jsonl",
			"--cwd",
			"/tmp",
			"--yes",
			"--no-tools",
			"-p",
			"fix",
			"the",
			"bug",
		]);
		expect(options).toMatchObject({
			command: "run",
			prompt: "fix the bug",
			provider: "openai",
			model: "qwen3:8b",
			baseUrl: "http://127.0.0.1:11434/v1",
			apiKey: "sk-x",
			tools: ["read", "grep", "ls"],
			excludeTools: ["bash"],
			extensions: ["a.ts", "b.ts"],
			session: "s.jsonl",
			cwd: "/tmp",
			yes: true,
			noTools: true,
			mode: "print",
		});
	});

	it("treats everything after -- as the prompt", () => {
		expect(parseCliArguments(["--", "--not-an-option", "please"]).prompt).toBe("--not-an-option please");
	});

	it("knows the tools command and its --json", () => {
		const parsed = parseCliArguments(["tools", "--json"]);
		expect(parsed).toMatchObject({ command: "tools", json: true });
		expect("prompt" in parsed).toBe(false);
	});

	it("leaves the mode open without -p or --mode", () => {
		expect(parseCliArguments([]).mode).toBeUndefined();
		expect(parseCliArguments(["--mode", "json", "hi"]).mode).toBe("json");
	});

	it.each([
		[["--nope"], "Unknown option --nope"],
		[["-x"], "Unknown option -x"],
		[["--yes=no"], "--yes takes no value"],
		[["--model", "--yes"], "--model needs a value"],
		[["--model="], "--model needs a value"],
		[["--model", "a", "--model", "b"], "--model was given twice"],
		[["--demo", "hi"], "--demo plays its own prompt"],
		[["--demo", "--mode", "json"], "--demo cannot be combined with --mode"],
	])("rejects %j as a usage error", (argv, message) => {
		let error: unknown;
		try {
			parseCliArguments(argv);
		} catch (thrown) {
			error = thrown;
		}
		expect(error).toBeInstanceOf(CliError);
		expect((error as CliError).exitCode).toBe(2);
		expect((error as CliError).message).toContain(message);
	});
});
