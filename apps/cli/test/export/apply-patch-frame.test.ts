import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { plainTheme } from "@gantry/extensions";
import { afterEach, assert, beforeEach, describe, expect, it } from "vitest";
import { runSlashCommand } from "../../src/tui/slash-commands.js";
import { ToolCallTracker } from "../../src/tui/tool-calls.js";
import { renderToolFrame } from "../../src/tui/tool-frame.js";

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gantry-apply-patch-frame-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

const PATCH = [
	"*** Begin Patch",
	"*** Update File: app.js",
	"@@",
	' console.log("start");',
	'-console.log("helo");',
	'+console.log("hello");',
	"*** Add File: notes.md",
	"+# Notes",
	"*** End Patch",
].join("\n");

describe("apply_patch in the CLI's frames", () => {
	it("is drawn in the terminal frame and in the HTML export like edit: each file's name and its diff", async () => {
		writeFileSync(join(dir, "app.js"), 'console.log("start");\nconsole.log("helo");\n');
		const session = await createAgentSession({
			cwd: dir,
			sessionFile: join(dir, "live.jsonl"),
			// A model that edits with patches: apply_patch is active instead of edit.
			model: {
				...createFauxModel([
					{ toolCalls: [{ name: "apply_patch", arguments: { input: PATCH } }] },
					{ text: "Fixed the greeting." },
				]),
				editFormat: "apply_patch",
			},
		});
		const tracker = new ToolCallTracker();
		session.subscribe((event) => {
			tracker.apply(event);
		});
		await session.prompt("Fix the greeting");
		expect(readFileSync(join(dir, "app.js"), "utf8")).toBe('console.log("start");\nconsole.log("hello");\n');
		const [call] = tracker.takeAll();
		assert.isDefined(call);
		const frame = renderToolFrame(call, {
			theme: plainTheme,
			getDefinition: (name) => session.getToolDefinition(name),
			spinner: "",
			now: 0,
		});
		expect(frame[0]).toBe("╭─ apply_patch M app.js, A notes.md");
		expect(frame.slice(1, -1)).toEqual([
			"│ Success. Updated the following files:",
			"│ M app.js",
			"│ @@ -1,2 +1,2 @@",
			'│  console.log("start");',
			'│ -console.log("helo");',
			'│ +console.log("hello");',
			"│ A notes.md",
			"│ @@ -0,0 +1,1 @@",
			"│ +# Notes",
		]);
		const printed: string[] = [];
		runSlashCommand("/export", { session, theme: plainTheme, print: (lines: string[]) => printed.push(...lines) });
		const html = readFileSync(join(dir, "live.html"), "utf8");
		expect(html).toContain('<span class="s-bold">M app.js</span>');
		expect(html).toContain('<span class="s-error">-console.log(&#34;helo&#34;);</span>');
		expect(html).toContain('<span class="s-success">+console.log(&#34;hello&#34;);</span>');
		await session.dispose();
	});
});
