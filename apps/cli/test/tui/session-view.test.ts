import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { plainTheme, type ToolDefinition } from "@gantry/extensions";
import { createLsToolDefinition } from "@gantry/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PlainScreen } from "../../src/tui/screen.js";
import { SessionView } from "../../src/tui/session-view.js";
import { EXAMPLES } from "../helpers/run-cli.js";

let cwd: string;
beforeEach(() => {
	cwd = mkdtempSync(join(tmpdir(), "gantry-view-test-"));
	writeFileSync(join(cwd, "a.txt"), "alpha\n");
});
afterEach(() => {
	rmSync(cwd, { recursive: true, force: true });
});

/** Variants of `ls` with no renderers, drawing themselves, and a renderer that throws. */
function variants(): ToolDefinition[] {
	const ls = createLsToolDefinition(cwd) as ToolDefinition;
	return [
		{ ...withoutRenderers(ls), name: "ls_plain" },
		{
			...ls,
			name: "ls_self",
			renderShell: "self",
			renderCall: (args, theme) => theme.bold(`★ listing ${(args as { path: string }).path}`),
			renderResult: () => "★ listed",
		},
		{
			...ls,
			name: "ls_broken",
			renderCall: () => {
				throw new Error("renderer bug");
			},
		},
	];
}

async function drawSession(turns: Parameters<typeof createFauxModel>[0]): Promise<string> {
	let output = "";
	const screen = new PlainScreen({ write: (text: string) => (output += text) });
	const session = await createAgentSession({
		cwd,
		model: createFauxModel(turns),
		customTools: variants(),
		extensions: [join(EXAMPLES, "run-tools.ts")],
	});
	const view = new SessionView(screen, { theme: plainTheme, getDefinition: (name) => session.getToolDefinition(name) });
	session.subscribe(view.handle);
	await session.prompt("go");
	view.dispose();
	await session.dispose();
	return output;
}

describe("SessionView", () => {
	it("draws tool frames in call order with the tools' renderers, the fallback, and self-drawn tools", async () => {
		const output = await drawSession([
			{
				text: "Listing three ways.",
				toolCalls: [
					{ name: "ls_plain", arguments: { path: "." } },
					{ name: "ls_self", arguments: { path: "." } },
					{ name: "ls_broken", arguments: { path: "." } },
				],
			},
			{ text: "Done." },
		]);
		const lines = output.split("\n");
		expect(lines[0]).toBe("Listing three ways.");
		expect(lines[1]).toBe("");
		// No renderer: the name and arguments, and the result's text.
		expect(lines.slice(2, 5)).toEqual(["╭─ ls_plain path=.", "│ a.txt", expect.stringMatching(/^╰─ ✓ \d+ms$/)]);
		// renderShell "self": the tool's own lines, no frame.
		expect(lines.slice(5, 7)).toEqual(["★ listing .", "★ listed"]);
		// A throwing renderCall falls back; its renderResult still draws.
		expect(lines[7]).toBe("╭─ ls_broken path=.");
		expect(output).toContain("\nDone.\n");
	});

	it("draws nested calls inside their caller's frame", async () => {
		const output = await drawSession([
			{ toolCalls: [{ name: "run_tools", arguments: { calls: [{ name: "read", args: { path: "a.txt" } }] } }] },
			{ text: "Read it." },
		]);
		expect(output).toMatch(
			/╭─ run_tools calls=\[\{"name":"read".*\n│ ╭─ read a\.txt\n│ │ alpha\n(│ │ .*\n)*│ ╰─ ✓ \d+ms\n│ #1 read: ok\n│ alpha\n╰─ ✓ \d+ms/,
		);
	});

	it("shows blocked calls as not run, and model errors", async () => {
		const output = await drawSession([
			{ toolCalls: [{ name: "no_such_tool", arguments: {} }] },
			{ stopReason: "error", errorMessage: "overloaded" },
		]);
		expect(output).toContain("╭─ no_such_tool\n│ Tool no_such_tool not found\n╰─ ✗ not run");
		expect(output).toContain("gantry: overloaded");
	});
});

function withoutRenderers(definition: ToolDefinition): ToolDefinition {
	const { renderCall: _renderCall, renderResult: _renderResult, ...rest } = definition;
	return rest;
}
