import { execFile } from "node:child_process";
import { randomInt } from "node:crypto";
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { AgentToolResult } from "@gantry/agent";
import type { ExtensionToolContext } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPowerShellToolDefinition } from "../src/shell/powershell.js";
import type { PowerShellToolInput } from "../src/shell/types.js";

const execFileAsync = promisify(execFile);
const noContext = undefined as unknown as ExtensionToolContext;

/**
 * Stands in for PowerShell (which cannot be installed here): checks that it got exactly
 * `-NoProfile -NonInteractive -Command <command>`, then runs the command with bash.
 */
const FAKE_PWSH = `#!/usr/bin/env bash
if [ "$#" -ne 4 ] || [ "$1" != "-NoProfile" ] || [ "$2" != "-NonInteractive" ] || [ "$3" != "-Command" ]; then
	echo "fake pwsh: unexpected arguments: $*" >&2
	exit 99
fi
exec bash -c "$4"
`;

let dir: string;
let binDir: string;

beforeEach(async () => {
	dir = await realpath(await mkdtemp(join(tmpdir(), "gantry-powershell-test-")));
	binDir = join(dir, "bin");
	await mkdir(binDir);
	await writeFile(join(binDir, "pwsh"), FAKE_PWSH);
	await chmod(join(binDir, "pwsh"), 0o755);
});

afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

function runWithPath(path: string, input: PowerShellToolInput, signal?: AbortSignal) {
	const tool = createPowerShellToolDefinition(dir, { env: { PATH: path }, tempDir: dir });
	return tool.execute("call-1", input, signal, undefined, noContext);
}

function run(input: PowerShellToolInput, signal?: AbortSignal) {
	return runWithPath(`${binDir}:${process.env.PATH}`, input, signal);
}

function textOf(result: AgentToolResult<unknown>): string {
	return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("powershell tool", () => {
	it("runs the command with pwsh -NoProfile -NonInteractive -Command in the working folder", async () => {
		const result = await run({ command: "echo from-pwsh; pwd" });
		expect(textOf(result)).toBe(`from-pwsh\n${dir}`);
		expect(result.structuredContent).toMatchObject({ output: `from-pwsh\n${dir}`, exit_code: 0, truncated: false });
	});

	it("returns a non-zero exit as an error result", async () => {
		const result = await run({ command: "echo oops >&2; exit 4" });
		expect(result.isError).toBe(true);
		expect(textOf(result)).toBe("oops\n\nCommand exited with code 4");
		expect(result.structuredContent).toMatchObject({ exit_code: 4 });
	});

	it("truncates a large output and saves the full output to a powershell file", async () => {
		const result = await run({ command: "seq 1 5000" });
		const path = result.details?.fullOutputPath;
		expect(path?.startsWith(join(dir, "gantry-powershell-"))).toBe(true);
		expect(textOf(result)).toMatch(/\n\n\[Showing last 2000 lines of 5000\. Full output: /);
		const lines = (await readFile(path!, "utf8")).split("\n");
		expect(lines).toHaveLength(5001);
		expect(lines[4999]).toBe("5000");
	});

	it("kills the whole process tree on timeout", async () => {
		const marker = `${900 + randomInt(100)}.${randomInt(1e9)}`;
		try {
			await expect(run({ command: `sleep ${marker} & echo started; sleep ${marker}`, timeout: 0.3 })).rejects.toThrow(
				/^started\n\nCommand timed out after 0\.3 seconds$/,
			);
			const { stdout } = await execFileAsync("ps", ["-eo", "pid,args"]);
			expect(stdout.split("\n").filter((line) => line.includes(marker))).toEqual([]);
		} finally {
			const { stdout } = await execFileAsync("ps", ["-eo", "pid,args"]);
			for (const line of stdout.split("\n").filter((entry) => entry.includes(marker))) {
				process.kill(Number(line.trim().split(/\s+/)[0]), "SIGKILL");
			}
		}
	});

	it.skipIf(process.platform === "win32")("says PowerShell is not installed when pwsh is not on PATH", async () => {
		await expect(runWithPath(join(dir, "empty"), { command: "Get-Date" })).rejects.toThrow(
			/PowerShell is not installed: no `pwsh` executable was found on PATH/,
		);
	});

	it("declares itself as a destructive, open-world tool", () => {
		const tool = createPowerShellToolDefinition(dir);
		expect(tool.name).toBe("powershell");
		expect(tool.annotations).toMatchObject({ destructiveHint: true, openWorldHint: true });
	});
});
