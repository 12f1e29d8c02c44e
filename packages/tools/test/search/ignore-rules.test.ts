import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { IgnoreRules } from "../../src/search/ignore-rules.js";
import { IgnoreScopes } from "../../src/search/ignore-scopes.js";
import { searchOperationsOn } from "../../src/search/workspace-search.js";
import { localFileSystem, localIgnoreFileReaderSync } from "../../src/workspace/local/file-system.js";
import { makeTempFolder, writeTree } from "./fixture.js";

const reader = searchOperationsOn(localFileSystem);
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
	await cleanup?.();
	cleanup = undefined;
});

async function tree(files: Record<string, string>): Promise<string> {
	const { root, remove } = await makeTempFolder();
	cleanup = remove;
	await writeTree(root, files);
	return root;
}

describe("IgnoreRules", () => {
	it("applies the .gitignore files of parent folders up to the repository root", async () => {
		const root = await tree({
			".gitignore": "*.secret\n",
			"repo/.git/HEAD": "ref\n",
			"repo/.gitignore": "*.log\n",
			"repo/pkg/.gitignore": "*.tmp\n",
			"repo/pkg/src/a.ts": "",
		});
		const rules = await IgnoreRules.forRoot(join(root, "repo/pkg/src"), reader);
		expect(rules.ignores("a.log", false)).toBe(true);
		expect(rules.ignores("deep/a.log", false)).toBe(true);
		// Above the repository root: not applied, as in git.
		expect(rules.ignores("a.secret", false)).toBe(false);
		// repo/pkg/.gitignore is a parent's file too.
		expect(rules.ignores("a.tmp", false)).toBe(true);
	});

	it("outside a repository, applies every parent's .gitignore", async () => {
		const root = await tree({ ".gitignore": "*.secret\n", "a/b/c.ts": "" });
		const rules = await IgnoreRules.forRoot(join(root, "a/b"), reader);
		expect(rules.ignores("x.secret", false)).toBe(true);
	});

	it("searches inside a folder a parent ignores, applying the other rules there", async () => {
		const root = await tree({ ".git/HEAD": "", ".gitignore": "dist/\n*.map\n/dist/top.js\n", "dist/a.js": "" });
		const rules = await IgnoreRules.forRoot(join(root, "dist"), reader);
		expect(rules.ignores("a.js", false)).toBe(false);
		expect(rules.ignores("a.js.map", false)).toBe(true);
		expect(rules.ignores("top.js", false)).toBe(true);
		expect(rules.ignores("sub/dist", true)).toBe(true);
	});

	it("lets a nested repository start over", async () => {
		const root = await tree({ ".gitignore": "*.log\n", "vendor/.git/HEAD": "", "vendor/a.log": "" });
		const scopes = new IgnoreScopes(root, await IgnoreRules.forRoot(root, reader), localIgnoreFileReaderSync);
		expect(scopes.ignores("a.log", false)).toBe(true);
		expect(scopes.ignores("vendor/a.log", false)).toBe(false);
	});

	it("treats everything in an ignored folder as ignored, whatever deeper files say", async () => {
		const root = await tree({ ".gitignore": "out/\n", "out/.gitignore": "!*\n", "out/a.ts": "" });
		const scopes = new IgnoreScopes(root, IgnoreRules.none, localIgnoreFileReaderSync);
		expect(scopes.ignores("out/a.ts", false)).toBe(true);
		expect(scopes.ignores("out", true)).toBe(true);
		expect(scopes.ignores("other/a.ts", false)).toBe(false);
	});
});
