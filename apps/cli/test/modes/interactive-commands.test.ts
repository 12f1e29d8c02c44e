import { readdirSync } from "node:fs";
import { getModel, getModels } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { plainTheme } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { sessionFolder } from "../../src/sessions.js";
import { runSlashCommand } from "../../src/tui/slash-commands.js";
import { startInteractiveGantry, useInteractiveFixture } from "../helpers/interactive-fixture.js";
import { runCli } from "../helpers/run-cli.js";
import { HAS_TMUX } from "../helpers/tmux.js";

const cli = useInteractiveFixture();

type Sent = { role: string; content: unknown };
function sent(index: number): Sent[] {
	return ((cli.server.requests[index]?.body.messages ?? []) as Sent[]).filter((message) => message.role !== "system");
}

async function ask(terminal: Awaited<ReturnType<typeof startInteractiveGantry>>, text: string, answer: string) {
	terminal.submit(text);
	await terminal.waitFor(answer);
}

describe.skipIf(!HAS_TMUX)("interactive /model, /compact and /clear", () => {
	it("/model on a server the catalogue does not know takes any id, and the next request asks for it", async () => {
		cli.server.enqueue({ text: "First answer." }, { text: "Second answer." });
		const terminal = await startInteractiveGantry(cli);
		await ask(terminal, "hello", "First answer.");
		terminal.submit("/model");
		await terminal.waitFor("The catalogue has no models for openai-compatible");
		terminal.submit("/model other-model");
		await terminal.waitFor("Model: openai-compatible/other-model from the next request on.");
		await ask(terminal, "again", "Second answer.");
		expect(cli.server.requests.map((request) => request.body.model)).toEqual(["scripted", "other-model"]);
	});

	it("/compact sends a summary request with no tools, then the summary and the last turn; --continue goes on from there", async () => {
		cli.server.enqueue(
			{ text: "Noted the blue door." },
			{ text: "Noted the red key." },
			{ text: "SUMMARY: a blue door and a red key." },
			{ text: "The key opens the door." },
		);
		const terminal = await startInteractiveGantry(cli);
		await ask(terminal, "The door is blue.", "Noted the blue door.");
		await ask(terminal, "The key is red.", "Noted the red key.");
		terminal.submit("/compact keep the colours");
		await terminal.waitFor("Compacted: 2 earlier messages are sent as a summary");
		const summaryRequest = cli.server.requests[2]?.body as { tools?: unknown; messages: Sent[] };
		expect(summaryRequest.tools).toBeUndefined();
		expect(summaryRequest.messages[0]?.content).toContain("You summarise a conversation");
		expect(JSON.stringify(summaryRequest.messages[1]?.content)).toContain("keep the colours");
		expect(JSON.stringify(summaryRequest.messages[1]?.content)).toContain("The door is blue.");
		await ask(terminal, "What opens the door?", "The key opens the door.");
		expect(sent(3).map((message) => message.content)).toEqual([
			expect.stringContaining("SUMMARY: a blue door and a red key."),
			"The key is red.",
			"Noted the red key.",
			"What opens the door?",
		]);
		terminal.kill();

		cli.server.enqueue({ text: "Still blue." });
		const run = await runCli(["--base-url", cli.server.openaiBaseUrl, "--model", "scripted", "-c", "And the door?"], {
			cwd: cli.workspace.project,
			home: cli.workspace.home,
		});
		expect(run.code).toBe(0);
		expect(sent(4).map((message) => message.content)).toEqual([
			expect.stringContaining("SUMMARY: a blue door and a red key."),
			"The key is red.",
			"Noted the red key.",
			"What opens the door?",
			"The key opens the door.",
			"And the door?",
		]);
	});

	it("/compact with nothing to summarise says so", async () => {
		const terminal = await startInteractiveGantry(cli);
		terminal.submit("/compact");
		await terminal.waitFor("Nothing to compact yet");
		expect(cli.server.requests).toHaveLength(0);
	});

	it("/clear starts a new session in the folder; the old one stays resumable", async () => {
		cli.server.enqueue({ text: "One noted." }, { text: "Two noted." });
		const terminal = await startInteractiveGantry(cli);
		await ask(terminal, "Remember one.", "One noted.");
		terminal.submit("/clear");
		const screen = await terminal.waitFor(/The previous one: Session: .*\.jsonl \(go on with: gantry --resume \w+\)/);
		expect(screen).toMatch(/New session \S+\.jsonl/);
		await ask(terminal, "Remember two.", "Two noted.");
		expect(sent(1).map((message) => message.content)).toEqual(["Remember two."]);
		const folder = sessionFolder(cli.workspace.project, cli.workspace.home);
		expect(readdirSync(folder).filter((name) => name.endsWith(".jsonl"))).toHaveLength(2);
	});
});

describe("the command lists", () => {
	it("--help and /help list /model, /clear, /compact and /mcp", async () => {
		const help = await runCli(["--help"], { cwd: cli.workspace.project });
		for (const command of ["/model <id>", "/clear", "/compact [instructions]", "/mcp", "/rewind"]) {
			expect(help.stdout).toContain(command);
		}
	});

	it("/model lists the provider's catalogue with the current model marked, and switches to another", async () => {
		const current = getModel("anthropic", getModels("anthropic")[0]?.id as string);
		const other = getModels("anthropic").find((model) => model.id !== current.id);
		const session = await createAgentSession({ cwd: cli.workspace.project, model: current, noTools: "all" });
		const printed: string[] = [];
		const context = { session, theme: plainTheme, print: (lines: string[]) => printed.push(...lines) };
		runSlashCommand("/model", context);
		expect(printed.find((line) => line.startsWith("●"))).toContain(current.id);
		expect(printed.filter((line) => line.startsWith("  ")).length).toBe(getModels("anthropic").length - 1);
		if (other !== undefined) {
			runSlashCommand(`/model ${other.id}`, context);
			expect(session.model.id).toBe(other.id);
			expect(session.model.api).toBe(other.api);
		}
		printed.length = 0;
		runSlashCommand("/model gpt-5.6-terra", context);
		expect(printed.join("\n")).toContain("anthropic has no model gpt-5.6-terra");
		await session.dispose();
	});
});
