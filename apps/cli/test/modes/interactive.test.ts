import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startInteractiveGantry, useInteractiveFixture } from "../helpers/interactive-fixture.js";
import { HAS_TMUX } from "../helpers/tmux.js";

const cli = useInteractiveFixture((project) => {
	writeFileSync(join(project, "notes.txt"), "hello from the notes\n");
	mkdirSync(join(project, "junk"));
});
const startGantry = () => startInteractiveGantry(cli);

function lastToolResult(): string {
	const messages = cli.server.requests.at(-1)?.body.messages as { role: string; content: unknown }[];
	return JSON.stringify(messages.filter((message) => message.role === "tool").at(-1)?.content);
}

describe.skipIf(!HAS_TMUX)("interactive mode in a terminal", () => {
	it("streams answers, draws tool frames, asks before destructive calls, and lists tools", async () => {
		cli.server.enqueue(
			{ text: "Let me read the notes.", toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
			{ text: "The notes say hello.", delayMs: 5 },
			{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf junk" } }] },
			{ text: "Deleted the junk folder." },
		);
		const gantry = await startGantry();
		gantry.submit("what do the notes say?");
		let screen = await gantry.waitFor("The notes say hello.");
		expect(screen).toContain("› what do the notes say?");
		expect(screen).toMatch(/╭─ read notes\.txt\n│ hello from the notes\n(│ .*\n)*╰─ ✓ \d+ms/);

		gantry.submit("delete the junk folder");
		screen = await gantry.waitFor("Allow bash `rm -rf junk`?");
		expect(screen).toMatch(/❯ Yes \(y\)\n\s+No \(n\)\n\s+Always allow "rm" commands in this project \(a\)/);
		expect(existsSync(join(cli.workspace.project, "junk"))).toBe(true);
		gantry.type("y");
		screen = await gantry.waitFor("Deleted the junk folder.");
		expect(screen).toContain("? Allow bash `rm -rf junk`? › Yes");
		expect(screen).toMatch(/╭─ \$ rm -rf junk\n(│ .*\n)*╰─ ✓/);
		expect(existsSync(join(cli.workspace.project, "junk"))).toBe(false);

		gantry.submit("/tools");
		screen = await gantry.waitFor(/\d+ registered · \d+ active/);
		expect(screen).toMatch(/TOOL\s+EXPOSURE\s+ACTIVE\s+CALLABLE\s+ANNOTATIONS\s+PERMISSION\s+SOURCE/);
		expect(screen).toMatch(/grep\s+direct\s+yes\s+yes\s+read-only, idempotent\s+allow \(read-only\)\s+builtin/);
		expect(screen).toMatch(/powershell\s+direct\s+no\s+no\s/);

		gantry.submit("/tools on powershell");
		await gantry.waitFor("powershell is active");

		gantry.press("C-c");
		await gantry.waitFor("Press Ctrl-C again to exit");
		gantry.press("C-c");
		await gantry.waitFor("EXITED:0");
	});

	it("declines with n, aborts a run with Ctrl-C and goes on, and reports the session", async () => {
		cli.server.enqueue(
			{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf junk" } }] },
			{ text: "Understood, I left it alone." },
			{ text: "Let me think about this for a long while", stallAfterEvents: 4 },
			{ text: "Back again." },
			{ toolCalls: [{ name: "bash", arguments: { command: "echo started; sleep 30" } }] },
		);
		const gantry = await startGantry();
		gantry.submit("delete the junk folder");
		await gantry.waitFor("Allow bash `rm -rf junk`?");
		gantry.type("n");
		let screen = await gantry.waitFor("Understood, I left it alone.");
		expect(screen).toContain("› No");
		expect(existsSync(join(cli.workspace.project, "junk"))).toBe(true);
		expect(lastToolResult()).toContain("The user declined");

		gantry.submit("think hard");
		// The first words arrive while the response is still open: the answer streams.
		await gantry.waitFor("Let me think");
		gantry.press("C-c");
		await gantry.waitFor("Aborted.");
		gantry.submit("hello again");
		await gantry.waitFor("Back again.");

		// Ctrl-C during a running command kills it and ends the run.
		gantry.submit("run the long command");
		await gantry.waitFor("Allow bash `echo started; sleep 30`?");
		gantry.type("a");
		await gantry.waitFor(/│ started\n/);
		gantry.press("C-c");
		screen = await gantry.waitFor(/╰─ ✗ failed .*\n+Aborted\./);
		expect(screen).toContain("Command aborted");
		expect(cli.server.requests).toHaveLength(5);

		gantry.submit("/session");
		screen = await gantry.waitFor(/Tokens\s+[\d,]+ in/);
		expect(screen).toMatch(/Messages\s+\d+ \(4 user, 5 assistant, 2 tool results\)/);
		expect(screen).toContain(join(cli.workspace.home, ".gantry", "sessions"));

		gantry.submit("/exit");
		await gantry.waitFor("EXITED:0");
	});
});
