import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The built entry point the tests run, as a user would (`node apps/cli/dist/main.js`). */
export const CLI_ENTRY = fileURLToPath(new URL("../../dist/main.js", import.meta.url));
/** The repository's example extensions. */
export const EXAMPLES = fileURLToPath(new URL("../../../../examples/extensions/", import.meta.url));

export interface CliRun {
	code: number | null;
	stdout: string;
	stderr: string;
}

export interface RunCliOptions {
	cwd: string;
	/** Environment on top of a minimal one (PATH and HOME only: no API keys leak in); undefined: none. */
	env?: Record<string, string> | undefined;
	/** Written to stdin, which is then closed; undefined: stdin is closed at once. */
	input?: string | Buffer | undefined;
	home?: string;
	timeoutMs?: number;
	/** A program (and its arguments) to start the CLI under, e.g. `unshare …`; node and the entry follow. */
	wrapper?: string[];
	/** Called with the child process once it is started (to signal it). */
	onStart?: (child: ChildProcess) => void;
}

/** Runs the built CLI with `args` and collects its output. Rejects only when it does not finish in time. */
export function runCli(args: string[], options: RunCliOptions): Promise<CliRun> {
	return new Promise((resolve, reject) => {
		const [program, ...programArgs] = [...(options.wrapper ?? []), process.execPath, CLI_ENTRY, ...args];
		if (program === undefined) throw new Error("runCli: the command line is empty");
		const child = spawn(program, programArgs, {
			cwd: options.cwd,
			env: { PATH: process.env.PATH ?? "", HOME: options.home ?? options.cwd, ...options.env },
			stdio: ["pipe", "pipe", "pipe"],
		});
		let stdout = "";
		let stderr = "";
		child.stdout.on("data", (chunk: Buffer) => {
			stdout += chunk.toString("utf8");
		});
		child.stderr.on("data", (chunk: Buffer) => {
			stderr += chunk.toString("utf8");
		});
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`gantry ${args.join(" ")} did not finish\nstdout:\n${stdout}\nstderr:\n${stderr}`));
		}, options.timeoutMs ?? 45_000);
		child.on("error", reject);
		child.on("close", (code) => {
			clearTimeout(timer);
			resolve({ code, stdout, stderr });
		});
		child.stdin.end(options.input ?? "");
		options.onStart?.(child);
	});
}

/** A temporary folder with a `project` to work in and a `home` for `~/.gantry`; `remove()` deletes it. */
export function makeWorkspace(): { root: string; project: string; home: string; remove(): void } {
	const root = mkdtempSync(join(tmpdir(), "gantry-cli-test-"));
	const project = join(root, "project");
	const home = join(root, "home");
	for (const folder of [project, home]) mkdirSync(folder);
	return {
		root,
		project,
		home,
		remove: () => rmSync(root, { recursive: true, force: true }),
	};
}

/**
 * Runs the CLI against a scripted model server's OpenAI endpoint (`--base-url … --model scripted`, then
 * `args`) in the workspace's project with its home; `env` and `input` as for `runCli`.
 */
export function runScriptedCli(
	server: { openaiBaseUrl: string },
	workspace: { project: string; home: string },
	args: string[],
	options: Pick<RunCliOptions, "env" | "input"> = {},
): Promise<CliRun> {
	return runCli(["--base-url", server.openaiBaseUrl, "--model", "scripted", ...args], {
		cwd: workspace.project,
		home: workspace.home,
		...options,
	});
}
