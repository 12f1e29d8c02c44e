import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalWorkspace } from "../../src/index.js";

describe("the local workspace's inheritedFiles", () => {
	let root: string;
	beforeEach(async () => {
		root = await realpath(await mkdtemp(join(tmpdir(), "gantry-inherited-files-")));
	});
	afterEach(async () => {
		await rm(root, { recursive: true, force: true });
	});

	it("opens each file for the process from fd 3 on, in order, and says it does", async () => {
		await writeFile(join(root, "first"), "one");
		await writeFile(join(root, "second"), "two");
		const workspace = createLocalWorkspace(root);
		expect(workspace.processes.inheritsFiles).toBe(true);
		let output = "";
		const status = await workspace.processes.spawn(
			"bash",
			["-c", 'cat <&3; echo; cat <&4; echo; [ -e /dev/fd/5 ] || echo "no 5"'],
			{
				cwd: root,
				inheritedFiles: [join(root, "first"), join(root, "second")],
				onStdout: (data) => {
					output += data.toString();
					return undefined;
				},
			},
		);
		expect(status.exitCode).toBe(0);
		expect(output).toBe("one\ntwo\nno 5\n");
	});

	it("rejects when a file cannot be opened, starting nothing", async () => {
		const workspace = createLocalWorkspace(root);
		await expect(
			workspace.processes.spawn("bash", ["-c", "touch started"], {
				cwd: root,
				inheritedFiles: [join(root, "missing")],
			}),
		).rejects.toThrow(/ENOENT/);
		await expect(realpath(join(root, "started"))).rejects.toThrow();
	});
});
