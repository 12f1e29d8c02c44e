import { execFileSync } from "node:child_process";
import { appendFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wrapToolDefinition } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	createAllToolDefinitions,
	createApplyPatchToolDefinition,
	createLocalWorkspace,
	type Workspace,
} from "../../src/index.js";

let folder: string;
beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-apply-patch-stale-"));
});
afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

/** The builtins over one workspace, as a session makes them (they share what the model has seen). */
function tools() {
	const all = createAllToolDefinitions(createLocalWorkspace(folder));
	return { read: wrapToolDefinition(all.read), patch: wrapToolDefinition(all.apply_patch) };
}

const patch = (body: string) => ({ input: `*** Begin Patch\n${body}\n*** End Patch` });

describe("apply_patch and files that changed since the model saw them", () => {
	it("refuses a file changed since it was read, writes none of the patch's files, and works once read again", async () => {
		await writeFile(join(folder, "a.txt"), "alpha\n");
		await writeFile(join(folder, "log.txt"), "first line\n");
		const { read, patch: apply } = tools();
		await read.execute("r1", { path: "log.txt" });
		await appendFile(join(folder, "log.txt"), "appended by someone else\n");
		const body = "*** Update File: a.txt\n-alpha\n+ALPHA\n*** Update File: log.txt\n-first line\n+1st line";
		await expect(apply.execute("p1", patch(body))).rejects.toThrow(
			"log.txt changed since it was last read (someone else wrote to it: the user, a formatter or another program).",
		);
		expect(await readFile(join(folder, "a.txt"), "utf8")).toBe("alpha\n");
		expect(await readFile(join(folder, "log.txt"), "utf8")).toBe("first line\nappended by someone else\n");
		await read.execute("r2", { path: "log.txt" });
		await apply.execute("p2", patch(body));
		expect(await readFile(join(folder, "log.txt"), "utf8")).toBe("1st line\nappended by someone else\n");
		// What it wrote is what the model saw last: a second patch of the same file needs no new read.
		await apply.execute("p3", patch("*** Update File: log.txt\n-1st line\n+first line"));
		expect(await readFile(join(folder, "log.txt"), "utf8")).toBe("first line\nappended by someone else\n");
	});

	it("writes nothing when a file is written to while the patch is worked out", async () => {
		await writeFile(join(folder, "a.txt"), "alpha\n");
		await writeFile(join(folder, "log.txt"), "first line\n");
		const local = createLocalWorkspace(folder);
		// Another program appends to log.txt right after the patch read it.
		const racing: Workspace = {
			...local,
			fs: {
				...local.fs,
				async readFile(path) {
					const bytes = await local.fs.readFile(path);
					if (path.endsWith("log.txt")) await appendFile(path, "appended meanwhile\n");
					return bytes;
				},
			},
		};
		const apply = wrapToolDefinition(createApplyPatchToolDefinition(racing));
		await expect(
			apply.execute("p", patch("*** Update File: a.txt\n-alpha\n+ALPHA\n*** Update File: log.txt\n-first line\n+1st")),
		).rejects.toThrow(
			"log.txt changed while the change was being made (another program wrote to it); nothing was written.",
		);
		expect(await readFile(join(folder, "a.txt"), "utf8")).toBe("alpha\n");
		expect(await readFile(join(folder, "log.txt"), "utf8")).toBe("first line\nappended meanwhile\n");
	});

	it("refuses a named pipe instead of waiting on it forever", async () => {
		execFileSync("mkfifo", [join(folder, "pipe")]);
		const { patch: apply } = tools();
		await expect(apply.execute("p", patch("*** Update File: pipe\n-x\n+y"))).rejects.toThrow(
			"pipe is not a regular file (a device, socket or named pipe); apply_patch only changes regular files.",
		);
		await expect(apply.execute("p", patch("*** Delete File: pipe"))).rejects.toThrow(/not a regular file/);
	});
});
