import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createFauxModel, DEFAULT_MODEL_IDS, getModels } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { describe, expect, it } from "vitest";
import { sessionFolder } from "../../src/sessions.js";
import { startInteractiveGantry, useInteractiveFixture } from "../helpers/interactive-fixture.js";
import { CLI_ENTRY, runCli, runScriptedCli } from "../helpers/run-cli.js";
import { HAS_TMUX, TmuxTerminal } from "../helpers/tmux.js";

const cli = useInteractiveFixture();

/** Goes on with the folder's latest session in print mode, naming no model: the transcript's decides. */
function continueWithoutModel(prompt: string) {
	return runCli(["--base-url", cli.server.openaiBaseUrl, "-c", prompt], {
		cwd: cli.workspace.project,
		home: cli.workspace.home,
	});
}

describe.skipIf(!HAS_TMUX)("/model in the transcript", () => {
	it("--continue goes on with the model /model switched to; --model on the command line wins and is kept; the export shows both", async () => {
		cli.server.enqueue(
			{ text: "First answer." },
			{ text: "Second answer." },
			{ text: "Resumed answer." },
			{ text: "Flag answer." },
			{ text: "Kept answer." },
		);
		const terminal = await startInteractiveGantry(cli);
		terminal.submit("hello");
		await terminal.waitFor("First answer.");
		terminal.submit("/model other-model");
		await terminal.waitFor("Model: openai-compatible/other-model from the next request on.");
		terminal.submit("again");
		await terminal.waitFor("Second answer.");
		terminal.submit("/exit");
		await terminal.waitFor("EXITED:0");

		const resumed = await continueWithoutModel("go on");
		expect(resumed.code, resumed.stderr).toBe(0);
		expect(resumed.stdout).toContain("Resumed answer.");
		const flagged = await runScriptedCli(cli.server, cli.workspace, ["-c", "with the flag"]);
		expect(flagged.code, flagged.stderr).toBe(0);
		const kept = await continueWithoutModel("and now");
		expect(kept.code, kept.stderr).toBe(0);
		expect(cli.server.requests.map((request) => request.body.model)).toEqual([
			"scripted",
			"other-model",
			"other-model",
			"scripted",
			"scripted",
		]);

		const folder = sessionFolder(cli.workspace.project, cli.workspace.home);
		const transcripts = readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
		expect(transcripts).toHaveLength(1);
		const page = join(cli.workspace.root, "session.html");
		const exported = await runCli(["export", join(folder, transcripts[0] ?? ""), "-o", page], {
			cwd: cli.workspace.project,
			home: cli.workspace.home,
		});
		expect(exported.code, exported.stderr).toBe(0);
		expect(exported.stderr).not.toContain("unreadable");
		const html = readFileSync(page, "utf8");
		const switches = [...html.matchAll(/Model switched to ([^<]+)</g)].map((match) => match[1]);
		expect(switches).toEqual(["openai-compatible/other-model", "openai-compatible/scripted"]);
	});

	it("--resume without an id opens the picked session with the model it was switched to", async () => {
		// OPENAI_BASE_URL: the catalogue's OpenAI models, served by the scripted server, chosen without --model.
		const env = { OPENAI_BASE_URL: cli.server.openaiBaseUrl };
		const other = getModels("openai").find((model) => model.id !== DEFAULT_MODEL_IDS.openai);
		if (other === undefined) throw new Error("the catalogue has one OpenAI model");
		cli.server.enqueue({ text: "Noted." }, { text: "Picked answer." });
		const first = await runCli(["remember this"], { cwd: cli.workspace.project, home: cli.workspace.home, env });
		expect(first.code, first.stderr).toBe(0);
		const folder = sessionFolder(cli.workspace.project, cli.workspace.home);
		const [name] = readdirSync(folder).filter((file) => file.endsWith(".jsonl"));
		// The switch as /model records it, through the session's own API.
		const session = await createAgentSession({
			cwd: cli.workspace.project,
			model: createFauxModel([]),
			sessionFile: join(folder, name ?? ""),
			checkpoints: false,
		});
		session.setModel({ ...other, baseUrl: cli.server.openaiBaseUrl });
		await session.dispose();

		const terminal = TmuxTerminal.start([process.execPath, CLI_ENTRY, "--resume"], {
			cwd: cli.workspace.project,
			env: { HOME: cli.workspace.home, ...env },
		});
		cli.terminal = terminal;
		await terminal.waitFor("Resume which session of this folder?");
		terminal.press("Enter");
		await terminal.waitFor(`openai/${other.id}`);
		await terminal.waitFor("Type a prompt");
		terminal.submit("and now?");
		await terminal.waitFor("Picked answer.");
		expect(cli.server.requests.map((request) => request.body.model)).toEqual([DEFAULT_MODEL_IDS.openai, other.id]);
	});
});
