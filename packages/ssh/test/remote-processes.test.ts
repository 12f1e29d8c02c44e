import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { WorkspaceSpawnOptions } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import type { SshWorkspace } from "../src/index.js";
import type { TestSshServer } from "../src/testing/index.js";
import { processesWith, uniqueSleep } from "./helpers/processes.js";
import { useRemoteWorkspace } from "./helpers/workspace.js";

let server: TestSshServer;
let workspace: SshWorkspace;
let folder: string;

useRemoteWorkspace((fixture) => {
	({ server, folder, workspace } = fixture);
});

async function spawnCollect(file: string, args: string[], options: Partial<WorkspaceSpawnOptions> = {}) {
	let stdout = "";
	let stderr = "";
	const exit = await workspace.processes.spawn(file, args, {
		cwd: folder,
		onStdout: (chunk) => {
			stdout += chunk.toString();
			return undefined;
		},
		onStderr: (chunk) => {
			stderr += chunk.toString();
			return undefined;
		},
		...options,
	});
	return { exit, stdout, stderr };
}

describe("spawn on the host", () => {
	it("passes arguments unchanged, however they are quoted", async () => {
		const words = ["plain", "two words", "it's", '"double"', "$HOME", "`id`", "a\nb", "", "*"];
		const { stdout, exit } = await spawnCollect("printf", ["[%s]", ...words]);
		expect(exit).toEqual({ exitCode: 0 });
		expect(stdout).toBe(words.map((word) => `[${word}]`).join(""));
	});

	it("keeps stdout and stderr apart, reports exit codes and signals, runs in cwd with env", async () => {
		const script = 'echo out; echo err >&2; echo "$PWD $GANTRY_X"; exit 3';
		const result = await spawnCollect("bash", ["-c", script], { env: { GANTRY_X: "it's set" } });
		expect(result).toEqual({ exit: { exitCode: 3 }, stdout: `out\n${folder} it's set\n`, stderr: "err\n" });
		const killed = await spawnCollect("bash", ["-c", "kill -TERM $$"]);
		expect(killed.exit).toEqual({ exitCode: null, signal: "SIGTERM" });
	});

	it("gives the command end of file on standard input", async () => {
		const { stdout, exit } = await spawnCollect("bash", ["-c", "cat; echo done"]);
		expect(exit).toEqual({ exitCode: 0 });
		expect(stdout).toBe("done\n");
	});

	it("rejects with ENOENT for a missing program or working folder", async () => {
		await expect(spawnCollect("gantry-no-such-program", [])).rejects.toMatchObject({ code: "ENOENT" });
		await expect(spawnCollect("true", [], { cwd: join(folder, "missing") })).rejects.toThrow(
			/Working directory does not exist/,
		);
	});

	it("waits while the consumer is busy (flow control) and loses nothing", async () => {
		let received = 0;
		let calls = 0;
		const exit = await workspace.processes.spawn("head", ["-c", "3000000", "/dev/zero"], {
			cwd: folder,
			onStdout: async (chunk) => {
				received += chunk.length;
				if (++calls % 20 === 0) await sleep(5);
			},
		});
		expect(exit).toEqual({ exitCode: 0 });
		expect(received).toBe(3_000_000);
	});

	it("keeps reading when a consumer returns something other than a promise", async () => {
		const chunks: Buffer[] = [];
		const uncaught: unknown[] = [];
		const record = (error: unknown) => uncaught.push(error);
		process.on("uncaughtException", record);
		try {
			const exit = await workspace.processes.spawn("bash", ["-c", "echo one; sleep 0.05; echo two"], {
				cwd: folder,
				// Plain JavaScript style: the arrow returns the new array length.
				onStdout: ((chunk: Buffer) => chunks.push(chunk)) as unknown as (chunk: Buffer) => undefined,
			});
			expect(exit).toEqual({ exitCode: 0 });
		} finally {
			process.off("uncaughtException", record);
		}
		expect(Buffer.concat(chunks).toString("utf8")).toBe("one\ntwo\n");
		expect(uncaught).toEqual([]);
	});

	it("abort kills the whole remote process tree and rejects", async () => {
		const marker = uniqueSleep();
		const controller = new AbortController();
		let started: () => void = () => undefined;
		const running = new Promise<void>((resolve) => {
			started = resolve;
		});
		const spawned = workspace.processes.spawn("bash", ["-c", `sleep ${marker} & sleep ${marker}; echo never`], {
			cwd: folder,
			signal: controller.signal,
			onStdout: () => undefined,
		});
		// Wait until both sleeps run on the host.
		for (let tries = 0; tries < 200 && (await processesWith(marker)).length < 2; tries++) await sleep(20);
		started();
		await running;
		const owners = (await processesWith(marker)).map((line) => Number(line.trim().split(/\s+/)[1]));
		expect(new Set(owners)).toEqual(new Set([server.uid]));
		controller.abort();
		await expect(spawned).rejects.toThrow("Operation aborted");
		expect(await processesWith(marker)).toEqual([]);
	});

	it("rejects at once when the signal has already fired", async () => {
		await expect(spawnCollect("true", [], { signal: AbortSignal.abort() })).rejects.toThrow("Operation aborted");
	});

	it("does not wait for a background process that keeps the output open", async () => {
		const marker = uniqueSleep();
		const { exit, stdout } = await spawnCollect("bash", ["-c", `sleep ${marker} & echo started`]);
		expect(exit).toEqual({ exitCode: 0 });
		expect(stdout).toBe("started\n");
		await spawnCollect("pkill", ["-f", marker]);
	});
});

describe("which and glob", () => {
	it("finds programs on the host's PATH", async () => {
		expect(await workspace.processes.which("bash")).toMatch(/^\/.*\/bash$/);
		expect(await workspace.processes.which("gantry-no-such-program")).toBeUndefined();
		expect(await workspace.processes.which("echo")).toMatch(/^\//);
	});

	it("lists files through rg, honouring .gitignore, hidden files included, .git and node_modules left out", async () => {
		expect(workspace.glob).toBeTypeOf("function");
		const tree = join(folder, "tree");
		await mkdir(join(tree, "src", "deep"), { recursive: true });
		await mkdir(join(tree, "node_modules", "pkg"), { recursive: true });
		await mkdir(join(tree, ".git"), { recursive: true });
		await writeFile(join(tree, ".gitignore"), "*.log\nbuild/\n");
		await mkdir(join(tree, "build"));
		for (const file of [
			"src/a.ts",
			"src/deep/b.ts",
			".hidden.ts",
			"x.log",
			"build/c.ts",
			"node_modules/pkg/i.ts",
			".git/d.ts",
			"top.ts",
		]) {
			await writeFile(join(tree, file), "x");
		}
		const glob = workspace.glob as NonNullable<SshWorkspace["glob"]>;
		expect((await glob("*.ts", tree, undefined)).sort()).toEqual([".hidden.ts", "src/a.ts", "src/deep/b.ts", "top.ts"]);
		expect((await glob("src/*.ts", tree, undefined)).sort()).toEqual(["src/a.ts"]);
		expect((await glob("**/*.log", tree, undefined)).sort()).toEqual([]);
		expect((await glob("*.{ts,log}", join(tree, "src"), undefined)).sort()).toEqual(["a.ts", "deep/b.ts"]);
	});
});

describe("escaping processes", () => {
	it("abort also kills a process that left the group with setsid", async () => {
		const marker = uniqueSleep();
		const controller = new AbortController();
		const spawned = workspace.processes
			.spawn("bash", ["-c", `setsid sleep ${marker} & sleep ${marker}`], {
				cwd: folder,
				signal: controller.signal,
				onStdout: () => undefined,
			})
			.catch((error: Error) => error);
		// The two sleeps (and bash, whose command line holds the marker too).
		for (let tries = 0; tries < 200 && (await processesWith(marker)).length < 2; tries++) await sleep(20);
		expect((await processesWith(marker)).length).toBeGreaterThanOrEqual(2);
		controller.abort();
		expect(await spawned).toMatchObject({ message: "Operation aborted" });
		expect(await processesWith(marker)).toEqual([]);
	});

	it("a command that ends normally leaves nothing in the background (cmd &, setsid), as locally", async () => {
		const marker = uniqueSleep();
		await spawnCollect("bash", ["-c", `sleep ${marker} > /dev/null 2>&1 & setsid sleep ${marker} > /dev/null 2>&1 &`]);
		expect(await processesWith(marker)).toEqual([]);
	});

	it("which searches a given PATH value", async () => {
		expect(
			await (workspace.processes.which as (name: string, options?: { path?: string }) => Promise<string | undefined>)(
				"bash",
				{ path: "/nonexistent" },
			),
		).toBeUndefined();
	});
});
