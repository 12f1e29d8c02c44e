import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { describe, expect, it } from "vitest";
import { parseCliArguments } from "../src/args.js";
import { type CliWorkspace, useCliFixture } from "./helpers/cli-fixture.js";
import { requestBody } from "./helpers/recorded-requests.js";
import { runCli, runScriptedCli } from "./helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

const gantry = (args: string[], env?: Record<string, string>) => runScriptedCli(server, workspace, args, { env });

describe("everyday fixes", () => {
	it("--version prints the package's version", async () => {
		const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
			version: string;
		};
		const run = await runCli(["--version"], { cwd: workspace.project, home: workspace.home });
		expect(manifest.version).not.toBe("0.0.0");
		expect(run.stdout).toBe(`${manifest.version}\n`);
	});

	it("reaches the server named by OPENAI_BASE_URL", async () => {
		server.enqueue({ text: "From the variable." });
		const run = await runCli(["--model", "scripted", "hi"], {
			cwd: workspace.project,
			home: workspace.home,
			env: { OPENAI_BASE_URL: server.openaiBaseUrl },
		});
		// Only the line naming the session: tool activity and errors would show here too.
		expect(run.stderr).toMatch(/^Session: \S+\.jsonl \(go on with: gantry --resume [0-9a-f]{8}\)\n$/);
		expect(run.stdout).toBe("From the variable.\n");
		expect(server.requests).toHaveLength(1);
	});

	it("--no-session leaves no transcript", async () => {
		server.enqueue({ text: "Nothing saved." });
		const run = await gantry(["--no-session", "hi"]);
		expect(run.code).toBe(0);
		expect(existsSync(join(workspace.home, ".gantry"))).toBe(false);
	});

	it("takes combined short flags such as -yp", async () => {
		mkdirSync(join(workspace.project, "junk"));
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "rm -rf junk" } }] }, { text: "Gone." });
		const run = await gantry(["-yp", "Remove junk"]);
		expect(run.code).toBe(0);
		expect(run.stdout).toBe("Gone.\n");
		expect(existsSync(join(workspace.project, "junk"))).toBe(false);
		expect(parseCliArguments(["-ye", "x.ts"])).toMatchObject({ yes: true, extensions: ["x.ts"] });
		expect(() => parseCliArguments(["-ey", "x.ts"])).toThrow("-e takes a value, so it must come last in -ey");
		expect(() => parseCliArguments(["-yq"])).toThrow("Unknown option -q in -yq");
	});

	it("--demo refuses the options it would ignore", async () => {
		const run = await runCli(["--demo", "--model", "gpt-4.1", "--yes"], {
			cwd: workspace.project,
			home: workspace.home,
		});
		expect(run.code).toBe(2);
		expect(run.stderr).toBe(
			"gantry: --demo plays a scripted offline session with its own model, tools and project; drop --model, --yes (see gantry --help)\n",
		);
	});

	it("says each guideline of the system prompt once", async () => {
		server.enqueue({ text: "ok" });
		expect((await gantry(["hi"])).code).toBe(0);
		const [system] = requestBody(server, 0).messages as { role: string; content: string }[];
		expect(system?.role).toBe("system");
		const guidelines = system!.content.split("\n").filter((line) => line.startsWith("- ") && !/^- \w+: /.test(line));
		const about = (pattern: RegExp) => guidelines.filter((line) => pattern.test(line));
		expect(about(/new files/i)).toHaveLength(1);
		expect(about(/read (a|the) file before/i)).toHaveLength(1);
	});

	it("shows why a call's arguments were rejected in its frame", async () => {
		server.enqueue({ toolCalls: [{ name: "read", arguments: { path: "a.txt", limit: "ten" } }] }, { text: "Oops." });
		const run = await gantry(["hi"]);
		expect(run.code).toBe(0);
		expect(run.stderr).toContain('│ Validation failed for tool "read":');
		expect(run.stderr).toContain("│   - limit: must be integer");
		expect(run.stderr).toContain("╰─ ✗ not run");
	});
});
