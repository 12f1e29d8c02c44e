import { access, chmod, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentToolResult } from "@gantry/agent";
import type { ExtensionToolContext } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashToolDefinition, createLocalBashOperations } from "../../src/shell/bash.js";
import { MAX_SHELL_COMMAND_BYTES } from "../../src/shell/command-length.js";
import { createPowerShellToolDefinition } from "../../src/shell/powershell.js";
import type { BashToolOptions } from "../../src/shell/types.js";

const noContext = undefined as unknown as ExtensionToolContext;

let dir: string;

beforeEach(async () => {
	dir = await realpath(await mkdtemp(join(tmpdir(), "gantry-long-command-")));
});

afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

function bash(command: string, options: BashToolOptions = {}) {
	return createBashToolDefinition(dir, { tempDir: dir, ...options }).execute(
		"call",
		{ command },
		undefined,
		undefined,
		noContext,
	);
}

function textOf(result: AgentToolResult<unknown>): string {
	return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** `touch ran; : aaa…; echo done`, exactly `bytes` long: it leaves a file behind when the shell ran it. */
function commandOf(bytes: number): string {
	const head = "touch ran; : ";
	const tail = "; echo done";
	return `${head}${"a".repeat(bytes - head.length - tail.length)}${tail}`;
}

const ran = () =>
	access(join(dir, "ran")).then(
		() => true,
		() => false,
	);

describe("a command too long for one argument", () => {
	it("bash turns a 200 KB command away before starting it: the size, the limit and what to do", async () => {
		const command = commandOf(200_000);
		await expect(bash(command)).rejects.toThrow(
			`"command" is too long: 200000 bytes, while the bash tool takes at most ${MAX_SHELL_COMMAND_BYTES} bytes ` +
				"(the shell gets the command as one argument, which Linux caps at 128 KiB). Save the script with the " +
				"write tool and run the file instead (e.g. `bash script.sh`); keep large data in files too.",
		);
		expect(await ran()).toBe(false);
	});

	it("bash runs a command of exactly the limit, as bash -c", async () => {
		const result = await bash(commandOf(MAX_SHELL_COMMAND_BYTES));
		expect(textOf(result)).toBe("done");
		expect(await ran()).toBe(true);
	});

	it("counts bytes, not characters: a limit's worth of characters in two-byte letters is turned away", async () => {
		const command = `: ${"é".repeat(MAX_SHELL_COMMAND_BYTES / 2)}`;
		await expect(bash(command)).rejects.toThrow(`"command" is too long: ${MAX_SHELL_COMMAND_BYTES + 2} bytes`);
	});

	it.skipIf(process.platform !== "linux")(
		"local bash operations given as options: the host's E2BIG becomes the same advice, not a bare spawn error",
		async () => {
			const command = commandOf(200_000);
			const error = await bash(command, { operations: createLocalBashOperations() }).catch((caught: Error) => caught);
			expect(error).toMatchObject({
				code: "E2BIG",
				message:
					`"command" is too long for the host's command line: 200000 bytes, and the host refused to start bash ` +
					"with it (E2BIG). Save the script with the write tool and run the file instead (e.g. `bash script.sh`); " +
					"keep large data in files too.",
			});
			expect(await ran()).toBe(false);
		},
	);

	it("powershell (the same shell core) turns it away with its own way to run a file", async () => {
		// A pwsh stand-in that would run the command with bash: it must never start.
		await writeFile(join(dir, "pwsh"), '#!/usr/bin/env bash\nexec bash -c "$4"\n');
		await chmod(join(dir, "pwsh"), 0o755);
		const tool = createPowerShellToolDefinition(dir, { env: { PATH: `${dir}:${process.env.PATH}` }, tempDir: dir });
		await expect(
			tool.execute("call", { command: commandOf(200_000) }, undefined, undefined, noContext),
		).rejects.toThrow(
			`"command" is too long: 200000 bytes, while the PowerShell tool takes at most ${MAX_SHELL_COMMAND_BYTES} bytes ` +
				"(the shell gets the command as one argument, which Linux caps at 128 KiB). Save the script with the " +
				"write tool and run the file instead (e.g. `& ./script.ps1`); keep large data in files too.",
		);
		expect(await ran()).toBe(false);
	});
});
