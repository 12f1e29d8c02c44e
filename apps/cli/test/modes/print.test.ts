import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { describe, expect, it } from "vitest";
import { type CliWorkspace, useCliFixture } from "../helpers/cli-fixture.js";
import { requestBody } from "../helpers/recorded-requests.js";
import { EXAMPLES, runCli, runScriptedCli } from "../helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

/** Runs `gantry` against the scripted server in the workspace's project folder. */
const gantry = (args: string[], input?: string | Buffer) => runScriptedCli(server, workspace, args, { input });

/** The tool results the model received in request `index`, as `{ name, content }` from the wire format. */
function toolMessages(index: number): { tool_call_id: string; content: string }[] {
	const messages = requestBody(server, index).messages as { role: string; tool_call_id: string; content: unknown }[];
	return messages
		.filter((message) => message.role === "tool")
		.map((message) => ({
			tool_call_id: message.tool_call_id,
			content: typeof message.content === "string" ? message.content : JSON.stringify(message.content),
		}));
}

function declaredTools(index: number): string[] {
	const tools = (requestBody(server, index).tools ?? []) as { function: { name: string } }[];
	return tools.map((tool) => tool.function.name);
}

describe("print mode", () => {
	it("prints the final answer on stdout", async () => {
		server.enqueue({ text: "The answer is 42." });
		const run = await gantry(["-p", "What is the answer?"]);
		// Only the line naming the session: tool activity and errors would show here too.
		expect(run.stderr).toMatch(/^Session: \S+\.jsonl \(go on with: gantry --resume [0-9a-f]{8}\)\n$/);
		expect(run.code).toBe(0);
		expect(run.stdout).toBe("The answer is 42.\n");
		const messages = requestBody(server, 0).messages as { role: string; content: unknown }[];
		expect(messages.at(-1)).toMatchObject({ role: "user", content: "What is the answer?" });
	});

	it("takes the prompt from stdin when none is given", async () => {
		server.enqueue({ text: "Piped." });
		const run = await gantry([], "a prompt on stdin\n");
		expect(run.code).toBe(0);
		expect(run.stdout).toBe("Piped.\n");
		const messages = requestBody(server, 0).messages as { role: string; content: unknown }[];
		expect(messages.at(-1)).toMatchObject({ role: "user", content: "a prompt on stdin" });
	});

	it("appends piped input to the prompt, fenced and with its size", async () => {
		server.enqueue({ text: "Looks fine." });
		const diff = "diff --git a/x b/x\n-old\n+new\n```inner fence```\n";
		const run = await gantry(["Review this diff"], diff);
		expect(run.code).toBe(0);
		const messages = requestBody(server, 0).messages as { role: string; content: unknown }[];
		expect(messages.at(-1)).toMatchObject({
			role: "user",
			content: `Review this diff\n\nInput piped on stdin (${Buffer.byteLength(diff)} B, 4 lines):\n\`\`\`\`\n${diff}\`\`\`\``,
		});
	});

	it("refuses piped input above the limit and sends nothing", async () => {
		const run = await gantry(["Summarize"], "x".repeat(401 * 1024));
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(/^gantry: stdin brings more than 400\.0 KB, the most a prompt takes: save it to a file/);
		expect(server.requests).toHaveLength(0);
	});

	it("refuses binary data on stdin, as read refuses a binary file, and sends nothing", async () => {
		const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
		const run = await gantry(["What is this?"], Buffer.concat([png, Buffer.alloc(64, 7)]));
		expect(run.code).toBe(2);
		expect(run.stderr).toMatch(/^gantry: stdin holds binary data \(80 B\), not text/);
		expect(server.requests).toHaveLength(0);
		// Text with a few Latin-1 accents is still text.
		server.enqueue({ text: "Read it." });
		const latin = await gantry(
			["What is this?"],
			Buffer.from("un caf\xe9 noir et une cr\xe8me br\xfbl\xe9e, puis la suite du texte\n", "latin1"),
		);
		expect(latin.code).toBe(0);
	});

	it("declares read, bash, edit, write, grep, find and ls by default, so the model can list a folder", async () => {
		writeFileSync(join(workspace.project, "a.txt"), "a\n");
		server.enqueue({ toolCalls: [{ id: "call_ls", name: "ls", arguments: { path: "." } }] }, { text: "One file." });
		const run = await gantry(["-p", "What is here?"]);
		expect(run.code).toBe(0);
		expect(declaredTools(0)).toEqual(["read", "bash", "edit", "write", "grep", "find", "ls"]);
		expect(toolMessages(1)[0]?.content).toContain("a.txt");
		expect(toolMessages(1)[0]?.content).not.toContain("not found");
	});

	it("names unknown --tools and exits 2 before calling the model", async () => {
		const run = await gantry(["--tools", "raed,bahs,grep", "hi"]);
		expect(run.code).toBe(2);
		expect(run.stderr).toContain(
			'gantry: --tools names tools that do not exist: "raed" (did you mean read?), "bahs" (did you mean bash?)',
		);
		expect(run.stderr.trim().split("\n")).toHaveLength(1);
		expect(server.requests).toHaveLength(0);
		const excluded = await gantry(["--exclude-tools", "grpe", "hi"]);
		expect(excluded.code).toBe(2);
		expect(excluded.stderr).toContain('--exclude-tools names a tool that does not exist: "grpe" (did you mean grep?)');
	});

	it("runs a tool call for real and sends its result with the next request", async () => {
		writeFileSync(join(workspace.project, "notes.txt"), "the secret word is marmalade\n");
		server.enqueue(
			{ toolCalls: [{ id: "call_read", name: "read", arguments: { path: "notes.txt" } }] },
			{ toolCalls: [{ id: "call_write", name: "write", arguments: { path: "out/copy.txt", content: "marmalade" } }] },
			{ text: "Copied." },
		);
		const run = await gantry(["--yes", "Copy the secret word"]);
		expect(run.code).toBe(0);
		expect(run.stdout).toBe("Copied.\n");
		expect(readFileSync(join(workspace.project, "out/copy.txt"), "utf8")).toBe("marmalade");
		expect(server.requests).toHaveLength(3);
		expect(toolMessages(1)).toEqual([
			{ tool_call_id: "call_read", content: expect.stringContaining("the secret word is marmalade") },
		]);
		expect(toolMessages(2)[1]).toMatchObject({ tool_call_id: "call_write" });
		// Tool activity goes to stderr, drawn in frames with the tools' own renderers.
		expect(run.stderr).toContain("╭─ read notes.txt");
		expect(run.stderr).toContain("marmalade");
		expect(run.stderr).toContain("╭─ write out/copy.txt");
		expect(run.stderr).not.toContain("Copied.");
	});

	it("blocks a destructive call without --yes, and runs it with --yes", async () => {
		mkdirSync(join(workspace.project, "junk"));
		const script = () => [{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf junk" } }] }, { text: "Done." }];
		server.enqueue(...script());
		const blocked = await gantry(["Remove the junk folder"]);
		expect(blocked.code).toBe(0);
		expect(existsSync(join(workspace.project, "junk"))).toBe(true);
		expect(toolMessages(1)[0]?.content).toContain("Blocked by the permission policy");
		expect(blocked.stderr).toContain("Blocked by the permission policy");
		expect(blocked.stderr).toContain("✗ blocked");
		expect(blocked.stderr).not.toContain("✗ not run");

		server.enqueue(...script());
		const allowed = await gantry(["--yes", "Remove the junk folder"]);
		expect(allowed.code).toBe(0);
		expect(existsSync(join(workspace.project, "junk"))).toBe(false);
		expect(toolMessages(3)[0]?.content).not.toContain("Blocked");
	});

	it("runs read-only shell commands without --yes (ls, cat, git status), and still blocks a write", async () => {
		writeFileSync(join(workspace.project, "notes.txt"), "marmalade\n");
		const calls = ["ls", "cat notes.txt | wc -l", "git status --short 2>&1", "touch made.txt"];
		server.enqueue(
			{ toolCalls: calls.map((command, index) => ({ id: `c${index}`, name: "bash", arguments: { command } })) },
			{ text: "Looked." },
		);
		const run = await gantry(["Look around"]);
		expect(run.code).toBe(0);
		const results = toolMessages(1).map((message) => message.content);
		expect(results[0]).toContain("notes.txt");
		expect(results[1]).toContain("1");
		expect(results[2]).not.toContain("Blocked");
		expect(results[3]).toContain("Blocked by the permission policy");
		expect(existsSync(join(workspace.project, "made.txt"))).toBe(false);
	});

	it("loads an extension with -e that blocks a call", async () => {
		writeFileSync(join(workspace.project, ".env"), "TOKEN=abc\n");
		server.enqueue(
			{ toolCalls: [{ name: "write", arguments: { path: ".env", content: "TOKEN=stolen\n" } }] },
			{ text: "I could not write it." },
		);
		const run = await gantry(["--yes", "-e", join(EXAMPLES, "protected-paths.ts"), "Overwrite .env"]);
		expect(run.code).toBe(0);
		expect(readFileSync(join(workspace.project, ".env"), "utf8")).toBe("TOKEN=abc\n");
		expect(toolMessages(1)[0]?.content).toContain("Refusing to write .env: .env files hold secrets.");
	});

	it("fails with the extension's error when -e cannot load it", async () => {
		const run = await gantry(["-e", "no-such-extension.ts", "hi"]);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("no-such-extension.ts could not be loaded");
		expect(server.requests).toHaveLength(0);
	});

	it("declares only the tools --tools names, minus --exclude-tools", async () => {
		server.enqueue({ text: "one" }, { text: "two" }, { text: "three" });
		expect((await gantry(["--tools", "read,grep,ls", "hi"])).code).toBe(0);
		expect(declaredTools(0)).toEqual(["read", "grep", "ls"]);
		expect((await gantry(["--exclude-tools", "bash,write", "hi"])).code).toBe(0);
		expect(declaredTools(1)).toEqual(["read", "edit", "grep", "find", "ls"]);
		expect((await gantry(["--no-tools", "hi"])).code).toBe(0);
		expect(declaredTools(2)).toEqual([]);
	});

	it("stops on Ctrl-C (SIGINT) with exit code 130", async () => {
		server.enqueue({ text: "Thinking about it for a very long time", stallAfterEvents: 2 });
		const run = await runCli(["--base-url", server.openaiBaseUrl, "--model", "scripted", "hi"], {
			cwd: workspace.project,
			home: workspace.home,
			onStart: (child) => {
				const poll = setInterval(() => {
					if (server.requests.length === 0) return;
					clearInterval(poll);
					child.kill("SIGINT");
				}, 50);
			},
		});
		expect(run.code).toBe(130);
		expect(run.stderr).toContain("Aborted.");
		expect(run.stdout).toBe("");
	});

	it("exits non-zero with the server's message when the model request fails", async () => {
		const failure = { status: 500, message: "the GPUs are on fire", headers: { "retry-after-ms": "0" } };
		server.enqueue(failure, failure, failure);
		const run = await gantry(["hi"]);
		expect(run.code).toBe(1);
		expect(run.stdout).toBe("");
		expect(run.stderr).toContain("the GPUs are on fire");
	});
});
