import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startInteractiveGantry, useInteractiveFixture } from "../helpers/interactive-fixture.js";
import { requestBody } from "../helpers/recorded-requests.js";
import { runCli } from "../helpers/run-cli.js";
import { HAS_TMUX } from "../helpers/tmux.js";

const cli = useInteractiveFixture();
const startGantry = (extra: string[] = []) => startInteractiveGantry(cli, extra);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!HAS_TMUX)("interactive mode for daily use", () => {
	it("renders the answer's Markdown: headings, bold, code, lists and fenced code", async () => {
		cli.server.enqueue({
			text: "## Findings\n\nThe **cart** total uses `index = 1`:\n\n- first item\n- second item\n\n```js\nconst **not bold** = 1;\n```\nDone.",
			delayMs: 2,
		});
		const gantry = await startGantry();
		gantry.submit("review");
		const screen = await gantry.waitFor("Done.");
		expect(screen).toContain("\nFindings\n");
		expect(screen).not.toContain("## Findings");
		expect(screen).toContain("The cart total uses index = 1:");
		expect(screen).toContain("• first item");
		expect(screen).toContain("• second item");
		// Fenced code is shown verbatim.
		expect(screen).toContain("const **not bold** = 1;");
		expect(screen).toContain("```js");
	});

	it("redraws the earlier conversation when -c resumes it", async () => {
		writeFileSync(join(cli.workspace.project, "notes.txt"), "remember the milk\n");
		cli.server.enqueue(
			{ toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
			{ text: "The note says: **remember the milk**." },
		);
		const first = await runCli(
			["--base-url", cli.server.openaiBaseUrl, "--model", "scripted", "What does the note say?"],
			{
				cwd: cli.workspace.project,
				home: cli.workspace.home,
			},
		);
		expect(first.code).toBe(0);
		const gantry = await startGantry(["-c"]);
		const screen = await gantry.waitFor("resumed here");
		expect(screen).toContain("› What does the note say?");
		expect(screen).toMatch(/╭─ read notes\.txt\n│ remember the milk\n(│ .*\n)*╰─ ✓/);
		expect(screen).toContain("The note says: remember the milk.");
	});

	it("stops the clocks while a permission question waits", async () => {
		mkdirSync(join(cli.workspace.project, "junk"));
		cli.server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "rm -rf junk" } }] }, { text: "Removed." });
		const gantry = await startGantry();
		gantry.submit("remove junk");
		await gantry.waitFor("Allow bash `rm -rf junk`?");
		const before = await gantry.waitFor("waiting for your answer");
		await sleep(1500);
		const after = gantry.capture();
		const status = (screen: string) => screen.split("\n").find((line) => line.includes("waiting for your answer"));
		expect(status(after)).toBe(status(before));
		expect(after).not.toMatch(/Working…/);
		gantry.type("y");
		await gantry.waitFor("Removed.");
	});

	it("keeps the lines of a pasted text and submits them as one prompt", async () => {
		cli.server.enqueue({ text: "Got both lines." });
		const gantry = await startGantry();
		gantry.type("Explain: ");
		gantry.paste("first line\nsecond line");
		await gantry.waitFor("first line↵second line");
		gantry.press("Enter");
		await gantry.waitFor("Got both lines.");
		const messages = requestBody(cli.server, 0).messages as { role: string; content: unknown }[];
		expect(JSON.stringify(messages.at(-1)?.content)).toContain("Explain: first line\\nsecond line");
	});

	it("keeps what is typed during a run as the next prompt", async () => {
		cli.server.enqueue({ text: "one two three four five six seven eight nine ten eleven twelve.", delayMs: 150 });
		cli.server.enqueue({ text: "Second answer." });
		const gantry = await startGantry();
		gantry.submit("first");
		await gantry.waitFor("one two");
		gantry.type("follow up");
		await gantry.waitFor("twelve.");
		await gantry.waitFor("› follow up");
		gantry.press("Enter");
		await gantry.waitFor("Second answer.");
		const second = requestBody(cli.server, 1).messages as { role: string; content: unknown }[];
		expect(JSON.stringify(second.at(-1)?.content)).toContain("follow up");
	});

	it("sends a prompt typed and entered during a run as soon as the run ends", async () => {
		cli.server.enqueue({ text: "one two three four five six seven eight nine ten eleven twelve.", delayMs: 150 });
		cli.server.enqueue({ text: "Queued answer." });
		const gantry = await startGantry();
		gantry.submit("first");
		await gantry.waitFor("one two");
		gantry.submit("and then this");
		await gantry.waitFor("Queued answer.");
		const second = requestBody(cli.server, 1).messages as { role: string; content: unknown }[];
		expect(JSON.stringify(second.at(-1)?.content)).toContain("and then this");
	});
});
