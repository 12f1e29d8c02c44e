import { readdirSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import type { Workspace, WorkspaceExitStatus, WorkspaceSpawnOptions } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import { createSandboxedWorkspace, type SandboxedWorkspace } from "../src/index.js";
import { childProcessIds, curlThroughProxy, localWorkspace, placePerTest, processesWhere } from "./helpers.js";

const here = placePerTest();
/** A local workspace whose spawns are counted: the launcher's own, and commands entering the network. */
function counted(workspace: Workspace): { workspace: Workspace; spawns: () => number } {
	let spawns = 0;
	const { processes } = workspace;
	return {
		spawns: () => spawns,
		workspace: {
			...workspace,
			processes: {
				...processes,
				spawn(file, args, options) {
					spawns++;
					return processes.spawn(file, args, options);
				},
			},
		},
	};
}

interface Run {
	status: WorkspaceExitStatus;
	stdout: string;
	stderr: string;
}

async function run(workspace: SandboxedWorkspace, command: string, options: Partial<WorkspaceSpawnOptions> = {}) {
	const output = { stdout: "", stderr: "" };
	const status = await workspace.processes.spawn("bash", ["-c", command], {
		cwd: here.place.project,
		onStdout: (data) => {
			output.stdout += data;
			return undefined;
		},
		onStderr: (data) => {
			output.stderr += data;
			return undefined;
		},
		...options,
	});
	return { status, ...output } satisfies Run;
}

/** An allow-list workspace once its launcher starts its commands (no spawn of the inner processes per command). */
async function launching(hosts: string[]): Promise<{ workspace: SandboxedWorkspace; spawns: () => number }> {
	const inner = counted(localWorkspace(here.place));
	const workspace = await createSandboxedWorkspace(inner.workspace, {
		enabled: true,
		network: { allowedDomains: hosts },
	});
	here.workspaces.push(workspace);
	expect(workspace.sandbox.active).toBe(true);
	for (let attempt = 0; attempt < 100; attempt++) {
		const before = inner.spawns();
		await run(workspace, "true");
		if (inner.spawns() === before) return { workspace, spawns: inner.spawns };
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error("the workspace's commands never came from its launcher");
}

/** The network namespace of process `pid`, or undefined when it has ended. */
function networkOf(pid: string): string | undefined {
	try {
		return readlinkSync(join("/proc", pid, "ns", "net"));
	} catch {
		return undefined;
	}
}

describe("the command launcher of a workspace with an allow list", () => {
	it("starts each command inside the workspace's network with no program of its own in front, first in its PID namespace, secrets left out", async () => {
		const port = await here.answering("through the proxy");
		process.env.GANTRY_LAUNCHER_TEST_TOKEN = "do not pass";
		try {
			const { workspace, spawns } = await launching([`127.0.0.1:${port}`]);
			const before = spawns();
			const result = await run(
				workspace,
				`echo "$$ \${GANTRY_LAUNCHER_TEST_TOKEN:-none} $OWN"; ${curlThroughProxy(port)}`,
				{
					env: { OWN: "own value" },
				},
			);
			expect(result.stdout).toBe("1 none own value\nthrough the proxy");
			expect(result.status).toEqual({ exitCode: 0 });
			expect(spawns()).toBe(before);
			// Still held to the lists: no write outside.
			const denied = await run(workspace, "echo x > /etc/gantry-launcher-test");
			expect(denied.status.exitCode).not.toBe(0);
			expect(denied.stderr).toMatch(/Read-only file system/);
			// And to the seccomp filter: no Unix socket, so not the launcher's own either.
			const [socket] = readdirSync(here.place.temp, { recursive: true, encoding: "utf8" }).filter((name) =>
				/launcher-\w+\.sock$/.test(name),
			);
			expect(socket).toBeDefined();
			const reached = await run(
				workspace,
				`echo '{}' | socat -u - UNIX-CONNECT:${join(here.place.temp, socket ?? "")}`,
			);
			expect(reached.status.exitCode).not.toBe(0);
			expect(reached.stderr).toMatch(/socket\(1, .*Operation not permitted/);
		} finally {
			delete process.env.GANTRY_LAUNCHER_TEST_TOKEN;
		}
	});

	it("starts where NODE_OPTIONS makes scripts ES modules (the launcher is a CommonJS script)", async () => {
		const before = process.env.NODE_OPTIONS;
		process.env.NODE_OPTIONS = "--experimental-default-type=module";
		try {
			const { workspace } = await launching(["example.com"]);
			expect((await run(workspace, "echo from the launcher")).stdout).toBe("from the launcher\n");
		} finally {
			if (before === undefined) delete process.env.NODE_OPTIONS;
			else process.env.NODE_OPTIONS = before;
		}
	});

	it("delivers a command's output whole and in order to a consumer that takes its time, stderr apart, with its exit code", async () => {
		const { workspace } = await launching(["example.com"]);
		let stdout = 0;
		let chunks = 0;
		const status = await workspace.processes.spawn(
			"bash",
			["-c", "head -c 3000000 /dev/zero | tr '\\0' a; echo done >&2; exit 3"],
			{
				cwd: here.place.project,
				onStdout: async (data) => {
					stdout += data.length;
					if (++chunks % 10 === 0) await new Promise((resolve) => setTimeout(resolve, 5));
				},
				onStderr: (data) => {
					expect(data.toString()).toBe("done\n");
					return undefined;
				},
			},
		);
		expect(stdout).toBe(3_000_000);
		expect(status).toEqual({ exitCode: 3 });
	});

	it("keeps the output of commands running at once apart", async () => {
		const { workspace } = await launching(["example.com"]);
		const runs = await Promise.all(
			Array.from({ length: 8 }, (_, n) =>
				run(workspace, `for i in $(seq 1 300); do echo ${n}-$i; echo e${n}-$i >&2; done; exit ${n}`),
			),
		);
		for (const [n, result] of runs.entries()) {
			const lines = Array.from({ length: 300 }, (_, i) => `${n}-${i + 1}`);
			expect(result.stdout).toBe(`${lines.join("\n")}\n`);
			expect(result.stderr).toBe(`${lines.map((line) => `e${line}`).join("\n")}\n`);
			expect(result.status).toEqual({ exitCode: n });
		}
	});

	it("ends an aborted command and everything it started at once", async () => {
		const { workspace } = await launching(["example.com"]);
		const abort = new AbortController();
		const started = Date.now();
		setTimeout(() => abort.abort(), 300);
		const result = await run(workspace, "sleep 71.25 & sleep 71.5", { signal: abort.signal });
		expect(Date.now() - started).toBeLessThan(5_000);
		expect(result.status.exitCode).toBeNull();
		await new Promise((resolve) => setTimeout(resolve, 200));
		expect(processesWhere((line) => line === "sleep 71.25" || line === "sleep 71.5").length).toBe(0);
	});

	it("starts nothing once the workspace's network relays ended, though the launcher still runs", async () => {
		const { workspace } = await launching(["example.com"]);
		// The launcher (its socket is in this test's temp folder) lives in the relays' namespace; the relays'
		// holder is the bubblewrap whose first process is in that namespace too.
		const [launcher] = processesWhere((line) => line.includes(here.place.temp) && line.includes("launcherProgram"));
		const network = networkOf(launcher ?? "");
		expect(network).toBeDefined();
		const holder = childProcessIds().find((pid) => childProcessIds(pid).some((child) => networkOf(child) === network));
		expect(holder).toBeDefined();
		process.kill(Number(holder), "SIGKILL");
		await new Promise((resolve) => setTimeout(resolve, 200));
		await expect(run(workspace, "echo ran")).rejects.toThrow("the sandbox's network relays have ended");
	});

	it("starts a command the usual way when the launcher cannot (a missing working folder is named)", async () => {
		const { workspace } = await launching(["example.com"]);
		const missing = join(here.place.project, "not-there");
		await expect(run(workspace, "true", { cwd: missing })).rejects.toThrow(
			`Working directory does not exist: ${missing}`,
		);
	});

	it("goes on entering the network per command once the launcher was killed with the inner processes", async () => {
		const { workspace, spawns } = await launching(["example.com"]);
		const running = run(workspace, "sleep 74.5").then(
			() => "returned",
			(error: Error) => error.message,
		);
		await new Promise((resolve) => setTimeout(resolve, 300));
		await workspace.processes.killAll?.();
		// The command that ran meanwhile ended with the launcher, and says so.
		expect(await running).toBe("the sandbox's command launcher ended while the command ran");
		expect(processesWhere((line) => line === "sleep 74.5").length).toBe(0);
		const before = spawns();
		const result = await run(workspace, "echo still runs");
		expect(result.stdout).toBe("still runs\n");
		expect(spawns()).toBe(before + 1);
	});
});
