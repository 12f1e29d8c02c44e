import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { describe, expect, it } from "vitest";
import { type CliWorkspace, useCliFixture } from "./helpers/cli-fixture.js";
import { runCli } from "./helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

const bwrapRuns = ["/usr/bin/bwrap", "/bin/bwrap"].some((path) => existsSync(path));

/** The text of the first tool result the model got back. */
function firstToolResult(): string {
	const request = server.requests.find((entry) =>
		(entry.body.messages as { role: string }[]).some((message) => message.role === "tool"),
	);
	const result = (request?.body.messages as { role: string; content: unknown }[] | undefined)?.find(
		(message) => message.role === "tool",
	);
	return typeof result?.content === "string" ? result.content : JSON.stringify(result?.content);
}

describe("--sandbox", () => {
	it.skipIf(!bwrapRuns)(
		"runs bash in the OS sandbox: a write outside the folder is not made, and the result says why",
		async () => {
			const outside = join(workspace.root, "outside", "escaped.txt");
			mkdirSync(join(workspace.root, "outside"));
			server.enqueue(
				{ toolCalls: [{ name: "bash", arguments: { command: `echo x > ${outside}` } }] },
				{ text: "Tried." },
			);
			// No --yes: with the sandbox on, a sandboxed bash call runs without a question (autoAllowBashIfSandboxed).
			const run = await runCli(
				["--base-url", server.openaiBaseUrl, "--model", "scripted", "--sandbox", "-p", "write it"],
				{
					cwd: workspace.project,
					home: workspace.home,
				},
			);
			expect(run.code, run.stderr).toBe(0);
			expect(existsSync(outside)).toBe(false);
			const result = firstToolResult();
			expect(result).toContain(`The sandbox stopped writing ${outside}`);
			expect(result).not.toContain("Blocked by the permission policy");
		},
	);

	it.skipIf(!bwrapRuns)("gantry tools says the sandbox is on, from the flag or from the settings key", async () => {
		const flag = await runCli(["tools", "--sandbox"], { cwd: workspace.project, home: workspace.home });
		expect(flag.code, flag.stderr).toBe(0);
		expect(flag.stdout).toMatch(/Sandbox: on \(.*from --sandbox\)/);
		mkdirSync(join(workspace.home, ".gantry"));
		writeFileSync(join(workspace.home, ".gantry", "settings.json"), JSON.stringify({ sandbox: { enabled: true } }));
		const settings = await runCli(["tools"], { cwd: workspace.project, home: workspace.home });
		expect(settings.stdout).toMatch(/Sandbox: on \(.*from sandbox\.enabled in the settings\)/);
	});

	it("gantry tools says the sandbox is off without it", async () => {
		const run = await runCli(["tools"], { cwd: workspace.project, home: workspace.home });
		expect(run.stdout).toContain("Sandbox: off");
	});

	it("is refused with --ssh, with the reason", async () => {
		const run = await runCli(["--sandbox", "--ssh", "someone@127.0.0.1", "-p", "hi"], {
			cwd: workspace.project,
			home: workspace.home,
		});
		expect(run.code).not.toBe(0);
		expect(run.stderr).toContain("--sandbox cannot be combined with --ssh");
		expect(server.requests).toHaveLength(0);
	});
});
