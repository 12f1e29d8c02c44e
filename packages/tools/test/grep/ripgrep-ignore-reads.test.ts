import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGrepToolDefinition } from "../../src/grep/grep.js";
import { createLocalWorkspace } from "../../src/workspace/local/local-workspace.js";
import type { Workspace } from "../../src/workspace/types.js";
import { makeTempFolder, writeTree } from "../search/fixture.js";
import { ripgrepAvailable } from "./ripgrep-available.js";

/** Thirty folders, each with one matching file; one folder's .gitignore hides its own file. */
const TREE: Record<string, string> = {
	...Object.fromEntries(
		Array.from({ length: 30 }, (_, index) => [`d${String(index).padStart(2, "0")}/x.txt`, "needle\n"]),
	),
	"d00/.gitignore": "x.txt\n",
};

/** The local workspace at `root`, whose file system records every path it is asked to stat. */
function recordingWorkspace(root: string, asked: string[]): Workspace {
	const local = createLocalWorkspace(root);
	const stat = (path: string) => {
		asked.push(path);
		return local.fs.stat(path);
	};
	const fs = { ...local.fs, stat };
	return { ...local, fs, processes: local.processes, resolvePath: (typed) => local.resolvePath(typed) };
}

describe.skipIf(!ripgrepAvailable)("the ripgrep engine's .gitignore check", () => {
	let root = "";
	let remove: () => Promise<void> = async () => undefined;
	beforeAll(async () => {
		({ root, remove } = await makeTempFolder("gantry-rg-ignore-reads-"));
		await writeTree(root, TREE);
	});
	afterAll(() => remove());

	const grep = async (limit: number) => {
		const asked: string[] = [];
		const tool = createGrepToolDefinition(recordingWorkspace(root, asked), { engine: "ripgrep" });
		const result = await tool.execute("call", { pattern: "needle", limit }, undefined, undefined, undefined as never);
		const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
		const folders = new Set(
			asked.filter((path) => path.endsWith("/.git")).map((path) => path.slice(root.length + 1, -"/.git".length)),
		);
		return { text, folders };
	};

	it("reads the ignore files of the folders on the way to the matches the limit keeps, not of every match", async () => {
		const { text, folders } = await grep(2);
		// d00's own .gitignore hides its file, which rg would not have reported either way: d01 and d02 are first.
		expect(text).toContain("d01/x.txt");
		expect(text).toContain("d02/x.txt");
		expect(text).not.toContain("d00/x.txt");
		expect(text).not.toContain("d03/x.txt");
		// One match past the limit is looked for, to say that there are more.
		expect([...folders].filter((folder) => folder.startsWith("d")).sort()).toEqual(["d01", "d02", "d03"]);
	});

	it("still checks every path the answer needs when the limit does not cut", async () => {
		const { text, folders } = await grep(100);
		expect(text.match(/x\.txt/g)).toHaveLength(29);
		expect([...folders].filter((folder) => folder.startsWith("d"))).toHaveLength(29);
	});
});
