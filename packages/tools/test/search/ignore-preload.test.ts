import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PreloadedIgnoreFiles } from "../../src/search/ignore-preload.js";
import { searchOperationsOn } from "../../src/search/workspace-search.js";
import { localFileSystem } from "../../src/workspace/local/file-system.js";
import { makeTempFolder, writeTree } from "./fixture.js";

describe("PreloadedIgnoreFiles", () => {
	let root = "";
	let remove: () => Promise<void> = async () => undefined;
	beforeAll(async () => {
		({ root, remove } = await makeTempFolder("gantry-preload-"));
		await writeTree(root, { ".gitignore": "*.log\n", "sub/.gitignore": "!keep.log\n", "sub/a.txt": "a\n" });
	});
	afterAll(() => remove());

	it("has read every folder on a path's way when loadFor resolves, also while another call reads them", async () => {
		const local = searchOperationsOn(localFileSystem);
		// The root's .gitignore arrives late, so the second call starts while the first still waits for it.
		const reader = {
			exists: local.exists,
			readText: async (path: string) => {
				if (path === join(root, ".gitignore")) await new Promise((resolve) => setTimeout(resolve, 50));
				return local.readText(path);
			},
		};
		const files = new PreloadedIgnoreFiles(root, reader);
		const first = files.loadFor("sub/a.txt");
		await files.loadFor("sub/b.txt");
		expect(files.readText(join(root, ".gitignore"))).toBe("*.log\n");
		expect(files.readText(join(root, "sub", ".gitignore"))).toBe("!keep.log\n");
		await first;
	});
});
