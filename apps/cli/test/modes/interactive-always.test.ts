import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startInteractiveGantry, useInteractiveFixture } from "../helpers/interactive-fixture.js";
import { runCli } from "../helpers/run-cli.js";
import { HAS_TMUX } from "../helpers/tmux.js";

const cli = useInteractiveFixture();

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

describe.skipIf(!HAS_TMUX)('"always" in interactive mode', () => {
	it("remembers the command prefix in the project's local settings, shows it in /tools, and says when it cannot save", async () => {
		const shared = join(cli.workspace.project, ".gantry", "settings.json");
		const settings = join(cli.workspace.project, ".gantry", "settings.local.json");
		const sharedText = `${JSON.stringify({ alwaysThinkingEnabled: true, permissions: { deny: ["bash(rm:*)"] } }, null, 2)}\n`;
		mkdirSync(join(cli.workspace.project, ".gantry"));
		writeFileSync(shared, sharedText);
		// Not echo or ls: read-only commands run without a question.
		cli.server.enqueue(bash("factor 6"), bash("factor 10"), { text: "Both ran." });
		const gantry = await startInteractiveGantry(cli, [], { width: 160 });
		gantry.submit("factor twice");
		let screen = await gantry.waitFor("Allow bash `factor 6`?");
		expect(screen).toMatch(/No \(n\)\n\s+Always allow "factor" commands in this project \(a\)/);
		gantry.type("a");
		screen = await gantry.waitFor("Both ran.");
		expect(screen).not.toContain("Allow bash `factor 10`?");
		expect(screen).toMatch(/╭─ \$ factor 10\n│ 10: 2 5\n/);
		expect(screen).toContain(`Saved bash(factor:*) to ${settings} (permissions.allow).`);
		// The personal file gets the rule; the shared, committed one is left as it was, and git ignores the new file.
		expect(JSON.parse(readFileSync(settings, "utf8"))).toEqual({ permissions: { allow: ["bash(factor:*)"] } });
		expect(readFileSync(shared, "utf8")).toBe(sharedText);
		const gitignore = join(cli.workspace.project, ".gantry", ".gitignore");
		expect(readFileSync(gitignore, "utf8")).toBe("settings.local.json\n");
		expect(screen).toContain(`Created ${gitignore} (settings.local.json), so git leaves your rules out.`);
		// A later run in the folder allows what was saved, once the folder is trusted (its files are the project's).
		expect(screen).toContain("later runs use it once the folder is trusted (gantry trust)");
		const tools = await runCli(["tools", "--json", "--trust"], {
			cwd: cli.workspace.project,
			home: cli.workspace.home,
		});
		const bashEntry = (JSON.parse(tools.stdout) as { name: string; permission: unknown }[]).find(
			(tool) => tool.name === "bash",
		);
		expect(bashEntry?.permission).toMatchObject({ decision: "ask", conditional: { allow: ["bash(factor:*)"] } });

		gantry.submit("/tools");
		screen = await gantry.waitFor(/\d+ registered · \d+ active/);
		expect(screen).toMatch(/bash\s+direct\s+yes\s+yes\s+.*ask \+bash\(factor:\*\) -bash\(rm:\*\)/);

		// A settings file broken meanwhile is left alone; the answer holds for this session only.
		writeFileSync(settings, "{ oops");
		cli.server.enqueue(bash("touch a"), bash("touch b"), { text: "Listed." });
		gantry.submit("list twice");
		await gantry.waitFor("Allow bash `touch a`?");
		gantry.type("a");
		screen = await gantry.waitFor("Listed.");
		expect(screen).toContain('The answer "always" holds for this session only:');
		expect(screen.replace(/\s+/g, " ")).toContain(`${settings} was not changed: it is not valid JSON`);
		expect(screen).not.toContain("Allow bash `touch b`?");
		expect(readFileSync(settings, "utf8")).toBe("{ oops");
		gantry.submit("/tools");
		screen = await gantry.waitFor(/\+bash\(factor:\*\) \+bash\(touch:\*\)/);
		gantry.press("C-d");
		await gantry.waitFor("EXITED:0");
	});
});
