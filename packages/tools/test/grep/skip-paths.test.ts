import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGrepToolDefinition } from "../../src/grep/grep.js";
import type { GrepToolDetails, GrepToolInput } from "../../src/grep/types.js";
import { makeTempFolder, writeTree } from "../search/fixture.js";
import { ripgrepAvailable } from "./ripgrep-available.js";

/** A tree with secrets at two depths, an ignored secret (not counted) and many plain files (a limit cuts early). */
const TREE: Record<string, string> = {
	".gitignore": "ignored/\n",
	".env": "SECRET=hunter2\n",
	"app/.env": "SECRET=hunter3\n",
	"app/config.ts": "export const SECRET_NAME = 'x';\n",
	"ignored/.env": "SECRET=ignored\n",
	"notes.txt": "no SECRET here\n",
	...Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`many/f${index}.txt`, "SECRET line\n"])),
	"zz/.env": "SECRET=hunter4\n",
};

/** Files named `.env` at any depth, as a `Read(**\/.env)` deny rule covers them. */
const skipEnv = async () => (path: string) => path === ".env" || path.endsWith("/.env");

const engines = ripgrepAvailable ? (["builtin", "ripgrep"] as const) : (["builtin"] as const);

describe("grep's skipPaths keeps files unread and counts them", () => {
	let root = "";
	let remove: () => Promise<void> = async () => undefined;
	beforeAll(async () => {
		({ root, remove } = await makeTempFolder("gantry-grep-skip-"));
		await writeTree(root, TREE);
	});
	afterAll(() => remove());

	const run = async (engine: "builtin" | "ripgrep", input: GrepToolInput, skip = true) => {
		const tool = createGrepToolDefinition(root, { engine, ...(skip ? { skipPaths: skipEnv } : {}) });
		const result = await tool.execute("call", input, undefined, undefined, undefined as never);
		const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
		return { text, details: result.details as GrepToolDetails };
	};

	for (const engine of engines) {
		it(`${engine}: a folder search shows no line of a covered file and says how many it skipped`, async () => {
			const unguarded = await run(engine, { pattern: "SECRET=", path: "." }, false);
			expect(unguarded.text).toContain("hunter2");
			const { text, details } = await run(engine, { pattern: "SECRET", path: ".", limit: 500 });
			expect(text).not.toMatch(/hunter|\.env/);
			expect(text).toContain("app/config.ts");
			expect(text).toContain("[Skipped 3 files that a permission rule keeps from being read]");
			expect(details.skippedFiles).toBe(3);
		});

		it(`${engine}: the count holds when nothing matches, when the limit cuts early, and for one file`, async () => {
			const none = await run(engine, { pattern: "hunter" });
			expect(none.text).toBe("No matches found\n\n[Skipped 3 files that a permission rule keeps from being read]");
			const cut = await run(engine, { pattern: "SECRET", limit: 2 });
			expect(cut.text).not.toContain("hunter");
			expect(cut.details.skippedFiles).toBe(3);
			const globbed = await run(engine, { pattern: "SECRET", glob: ".env" });
			expect(globbed.text).not.toContain("hunter");
			expect(globbed.details.skippedFiles).toBe(3);
			const below = await run(engine, { pattern: "SECRET", path: "app" });
			expect(below.details.skippedFiles).toBe(1);
			const single = await run(engine, { pattern: "SECRET", path: "app/.env" });
			expect(single.text).not.toContain("hunter");
			expect(single.details.skippedFiles).toBe(1);
			const plain = await run(engine, { pattern: "SECRET", path: "notes.txt" });
			expect(plain.details.skippedFiles).toBeUndefined();
		});
	}
});
