import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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

/** The command lines of the processes whose working folder is `folder`. */
function processesIn(folder: string): string[] {
	return readdirSync("/proc")
		.filter((name) => /^\d+$/.test(name))
		.flatMap((pid) => {
			try {
				return readlinkSync(`/proc/${pid}/cwd`) === folder
					? [readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ")]
					: [];
			} catch {
				return [];
			}
		});
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

	it.skipIf(!bwrapRuns)(
		"with an allow list, runs bash calls through the sandbox's network and leaves none of its processes behind",
		async () => {
			const host: Server = createServer((_request, response) => response.end("from the allowed host"));
			await new Promise<void>((resolve) => host.listen(0, "127.0.0.1", resolve));
			try {
				const port = (host.address() as AddressInfo).port;
				mkdirSync(join(workspace.home, ".gantry"));
				writeFileSync(
					join(workspace.home, ".gantry", "settings.json"),
					JSON.stringify({ sandbox: { enabled: true, network: { allowedDomains: [`127.0.0.1:${port}`] } } }),
				);
				const fetch = `env -u NO_PROXY -u no_proxy curl -fsS --max-time 20 http://127.0.0.1:${port}/`;
				// Several calls: the first waits for the network, later ones come from the workspace's launcher.
				const calls = [fetch, "echo $$", "sleep 0.5; echo $$", fetch];
				server.enqueue(...calls.map((command) => ({ toolCalls: [{ name: "bash", arguments: { command } }] })), {
					text: "Fetched.",
				});
				// The workspace's command launcher (a node process in the folder) is seen while the session runs.
				let launcherSeen = false;
				const watch = setInterval(() => {
					launcherSeen ||= processesIn(workspace.project).some((line) => line.includes("launcherProgram"));
				}, 20);
				const run = await runCli(["--base-url", server.openaiBaseUrl, "--model", "scripted", "-p", "fetch it"], {
					cwd: workspace.project,
					home: workspace.home,
				}).finally(() => clearInterval(watch));
				expect(run.code, run.stderr).toBe(0);
				expect(launcherSeen).toBe(true);
				const last = server.requests.at(-1)?.body.messages as { role: string; content: unknown }[];
				const results = last.filter((message) => message.role === "tool").map((message) => String(message.content));
				expect(results).toHaveLength(4);
				expect(results[0]).toContain("from the allowed host");
				expect(results[1]).toMatch(/(^|\n)1(\n|$)/);
				expect(results[3]).toContain("from the allowed host");
				// No launcher, relay or command of the session still runs in its folder.
				expect(processesIn(workspace.project)).toEqual([]);
			} finally {
				await new Promise((resolve) => host.close(resolve));
			}
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
