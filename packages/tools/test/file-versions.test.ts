import { appendFile, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wrapToolDefinition } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditToolDefinition } from "../src/edit/edit.js";
import { createAllToolDefinitions, createLocalWorkspace, localEditOperations } from "../src/index.js";

let folder: string;
beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-versions-"));
});
afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

/** The builtins over one workspace, as a session makes them (they share what the model has seen). */
function tools() {
	const all = createAllToolDefinitions(createLocalWorkspace(folder));
	return {
		read: wrapToolDefinition(all.read),
		edit: wrapToolDefinition(all.edit),
		write: wrapToolDefinition(all.write),
	};
}

async function failure(call: Promise<unknown>): Promise<string> {
	try {
		await call;
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error("expected the call to fail");
}

describe("a file that changed since the model read it", () => {
	it("is not edited: the external writer's append survives, and after reading again the edit works", async () => {
		const path = join(folder, "log.txt");
		await writeFile(path, "first line\n");
		const { read, edit } = tools();
		await read.execute("r1", { path: "log.txt" });
		await appendFile(path, "appended by someone else\n");
		const message = await failure(
			edit.execute("e1", { path: "log.txt", edits: [{ oldText: "first", newText: "1st" }] }),
		);
		expect(message).toBe(
			"log.txt changed since it was last read (someone else wrote to it: the user, a formatter or another program). Read it again, then make the change on what it holds now.",
		);
		expect(await readFile(path, "utf8")).toBe("first line\nappended by someone else\n");
		await read.execute("r2", { path: "log.txt" });
		await edit.execute("e2", { path: "log.txt", edits: [{ oldText: "first", newText: "1st" }] });
		expect(await readFile(path, "utf8")).toBe("1st line\nappended by someone else\n");
	});

	it("is not overwritten by write either; the same size with a new modification time counts as a change", async () => {
		const path = join(folder, "config.json");
		await writeFile(path, '{"a":1}\n');
		const { read, write } = tools();
		await read.execute("r1", { path: "config.json" });
		await writeFile(path, '{"b":2}\n');
		await utimes(path, new Date(), new Date(Date.now() + 5_000));
		expect(await failure(write.execute("w1", { path: "config.json", content: "{}\n" }))).toContain(
			"config.json changed since it was last read",
		);
		expect(await readFile(path, "utf8")).toBe('{"b":2}\n');
	});

	it("lets the model go on editing what it wrote itself, and edit files it never read", async () => {
		const { read, edit, write } = tools();
		await write.execute("w1", { path: "new.txt", content: "one\n" });
		await edit.execute("e1", { path: "new.txt", edits: [{ oldText: "one", newText: "two" }] });
		await edit.execute("e2", { path: "new.txt", edits: [{ oldText: "two", newText: "three" }] });
		await writeFile(join(folder, "unread.txt"), "alpha\n");
		await edit.execute("e3", { path: "unread.txt", edits: [{ oldText: "alpha", newText: "beta" }] });
		await read.execute("r1", { path: "new.txt" });
		expect(await readFile(join(folder, "new.txt"), "utf8")).toBe("three\n");
		expect(await readFile(join(folder, "unread.txt"), "utf8")).toBe("beta\n");
	});

	it("written to while the edit is being made loses nothing: the edit is refused", async () => {
		const path = join(folder, "busy.txt");
		await writeFile(path, "start\n");
		const workspace = createLocalWorkspace(folder);
		const edit = wrapToolDefinition(
			createEditToolDefinition(workspace, {
				operations: {
					...localEditOperations,
					stat: (target) => workspace.fs.stat(target),
					// Another program appends right after the edit read the file.
					readFile: async (target) => {
						const data = await localEditOperations.readFile(target);
						await appendFile(target, "late append\n");
						return data;
					},
				},
			}),
		);
		const message = await failure(
			edit.execute("e1", { path: "busy.txt", edits: [{ oldText: "start", newText: "end" }] }),
		);
		expect(message).toBe(
			"busy.txt changed while the change was being made (another program wrote to it); nothing was written. Read it again and repeat the change.",
		);
		expect(await readFile(path, "utf8")).toBe("start\nlate append\n");
	});
});
