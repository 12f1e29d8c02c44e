import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startInteractiveGantry, useInteractiveFixture } from "../helpers/interactive-fixture.js";
import { requestBody } from "../helpers/recorded-requests.js";
import { runCli } from "../helpers/run-cli.js";
import { HAS_TMUX } from "../helpers/tmux.js";

const cli = useInteractiveFixture();

function printRun(prompt: string) {
	return runCli(["--base-url", cli.server.openaiBaseUrl, "--model", "scripted", prompt], {
		cwd: cli.workspace.project,
		home: cli.workspace.home,
	});
}

function sentContents(index: number): unknown[] {
	const messages = requestBody(cli.server, index).messages as { role: string; content: unknown }[];
	return messages.filter((message) => message.role !== "system").map((message) => message.content);
}

describe.skipIf(!HAS_TMUX)("interactive sessions", () => {
	it("--resume without an id lists the folder's sessions, newest first, and continues the one picked", async () => {
		cli.server.enqueue({ text: "Tea noted." }, { text: "Coffee noted." }, { text: "You like tea." });
		expect((await printRun("I like tea.")).code).toBe(0);
		await new Promise((resolve) => setTimeout(resolve, 20));
		expect((await printRun("I like coffee.")).code).toBe(0);
		// The picker comes before the banner.
		const terminal = await startInteractiveGantry(cli, ["--resume"], { waitFor: "Resume which session" });
		const screen = await terminal.waitFor("Resume which session of this folder?");
		const coffee = screen.indexOf("I like coffee.");
		const tea = screen.indexOf("I like tea.");
		expect(coffee).toBeGreaterThan(0);
		expect(tea).toBeGreaterThan(coffee);
		terminal.press("Down");
		terminal.press("Enter");
		await terminal.waitFor(/Resumed \S+\.jsonl \(2 messages\)/);
		await terminal.waitFor("Type a prompt");
		terminal.submit("What do I like?");
		await terminal.waitFor("You like tea.");
		expect(sentContents(2)).toEqual(["I like tea.", "Tea noted.", "What do I like?"]);
	});

	it("shows the instruction files under the banner", async () => {
		mkdirSync(join(cli.workspace.project, ".git"));
		writeFileSync(join(cli.workspace.project, "AGENTS.md"), "Use tabs.\n");
		mkdirSync(join(cli.workspace.home, ".gantry"));
		writeFileSync(join(cli.workspace.home, ".gantry", "AGENTS.md"), "Call me Ada.\n");
		const gantry = await startInteractiveGantry(cli);
		expect(gantry.capture()).toContain("Instructions: ~/.gantry/AGENTS.md · AGENTS.md");
	});
});
