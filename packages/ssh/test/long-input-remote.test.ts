import { access } from "node:fs/promises";
import { join } from "node:path";
import type { ExtensionToolContext } from "@gantry/extensions";
import { createBashToolDefinition, createFindToolDefinition } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import { MAX_REMOTE_COMMAND_BYTES } from "../src/command-length.js";
import type { SshWorkspace } from "../src/index.js";
import { useRemoteWorkspace } from "./helpers/workspace.js";

let workspace: SshWorkspace;
let folder: string;
const noContext = undefined as unknown as ExtensionToolContext;

useRemoteWorkspace(async (fixture) => {
	({ folder, workspace } = fixture);
	await workspace.fs.writeFileAtomic(`${folder}/a.ts`, Buffer.from("export {};\n"));
});

/** Runs `printf %s <text>` on the host, standing for any program given a long argument. */
async function printOnHost(text: string) {
	let stdout = "";
	const exit = await workspace.processes.spawn("printf", ["%s", text], {
		cwd: folder,
		onStdout: (chunk) => {
			stdout += chunk.toString();
			return undefined;
		},
	});
	return { exit, length: stdout.length };
}

const ran = () =>
	access(join(folder, "ran")).then(
		() => true,
		() => false,
	);

// The tests of this block run in order: they count on the calls' markers staying one digit long.
describe("spawn of a command line too long for the host", () => {
	let overhead = 0;

	it("rejects before sending it, naming the size, the limit and what to do", async () => {
		const error = await printOnHost("a".repeat(200_000)).catch((caught: Error) => caught);
		expect(error).toBeInstanceOf(Error);
		expect(error).toMatchObject({ code: "E2BIG" });
		const message = (error as Error).message;
		expect(message).toMatch(
			new RegExp(
				`^Could not start printf: its command line is too long for the host, (\\d+) bytes with the arguments quoted ` +
					`for the remote shell, while an SSH command takes at most ${MAX_REMOTE_COMMAND_BYTES} bytes`,
			),
		);
		expect(message).toContain("Pass long input in a file instead");
		// What the wrapper, the folder and the quotes add to the argument.
		overhead = Number(/host, (\d+) bytes/.exec(message)?.[1]) - 200_000;
		expect(overhead).toBeGreaterThan(0);
	});

	it("runs a command line of exactly the limit (the host's real cap: one byte more fails there)", async () => {
		const length = MAX_REMOTE_COMMAND_BYTES - overhead;
		expect(await printOnHost("a".repeat(length))).toEqual({ exit: { exitCode: 0 }, length });
		await expect(printOnHost("a".repeat(length + 1))).rejects.toThrow(
			`its command line is too long for the host, ${MAX_REMOTE_COMMAND_BYTES + 1} bytes`,
		);
	});
});

describe("the tools over SSH give the local errors", () => {
	it("bash turns a 200 KB command away before starting it, as locally", async () => {
		const command = `touch ran; : ${"a".repeat(200_000 - 24)}; echo done`;
		expect(command).toHaveLength(200_000);
		const tool = createBashToolDefinition(workspace);
		await expect(tool.execute("remote-bash", { command }, undefined, undefined, noContext)).rejects.toThrow(
			'"command" is too long: 200000 bytes, while the bash tool takes at most 122880 bytes (the shell gets the ' +
				"command as one argument, which Linux caps at 128 KiB). Save the script with the write tool and run the " +
				"file instead (e.g. `bash script.sh`); keep large data in files too.",
		);
		expect(await ran()).toBe(false);
	});

	it("bash maps a command that only the quoting pushes past the host's cap to the same advice", async () => {
		// About 100 KB, under the tool's limit, but each of its 50,000 `'` is four bytes once quoted for the remote shell.
		const command = `touch ran; : ${"\\'".repeat(50_000)}`;
		const tool = createBashToolDefinition(workspace);
		await expect(tool.execute("remote-bash", { command }, undefined, undefined, noContext)).rejects.toThrow(
			`"command" is too long for the host's command line: ${Buffer.byteLength(command)} bytes, and the host ` +
				"refused to start bash with it (E2BIG). Save the script with the write tool",
		);
		expect(await ran()).toBe(false);
	});

	it("find turns a 200,007-character glob away with the local message", async () => {
		const pattern = `{${"x".repeat(200_007 - 10)}.ts,a.ts}`;
		const tool = createFindToolDefinition(workspace);
		await expect(tool.execute("remote-find", { pattern }, undefined, undefined, noContext)).rejects.toThrow(
			"pattern is too long: 200007 characters, while find takes globs of at most 10000. Give a shorter glob",
		);
		const atLimit = `{${"x".repeat(10_000 - 10)}.ts,a.ts}`;
		const found = await tool.execute("remote-find", { pattern: atLimit }, undefined, undefined, noContext);
		expect(found.structuredContent).toEqual({ files: ["a.ts"], truncated: false });
	});
});
