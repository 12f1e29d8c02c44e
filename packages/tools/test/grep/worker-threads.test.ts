import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createGrepToolDefinition, localGrepOperations } from "../../src/grep/grep.js";
import type { GrepOperations, GrepToolDetails, GrepToolInput } from "../../src/grep/types.js";
import { prefilterPool } from "../../src/workspace/local/prefilter-pool.js";
import { makeTempFolder, writeTree } from "../search/fixture.js";

// The built-in engine hands chunks of a large local search to worker threads. These tests search a tree
// big enough for that, and compare every answer with the same engine kept on one thread (operations
// whose `open` is not the local file system's own).

/** 1,500 small files, matches spread over them, plus the cases a worker must hand back or drop. */
function wideTree(): Record<string, string | Buffer> {
	const files: Record<string, string | Buffer> = {
		".gitignore": "ignored/\n*.log\n",
		"sub/.gitignore": "!keep.log\n",
		"sub/keep.log": "alpha kept by a negation\n",
		"sub/drop.log": "alpha ignored\n",
		"ignored/alpha.ts": "alpha ignored folder\n",
		"m/binary.dat": Buffer.concat([Buffer.from("alpha before a NUL\n"), Buffer.from([0]), Buffer.from("alpha\n")]),
		"m/large.txt": Array.from({ length: 40_000 }, (_, index) =>
			index % 9_000 === 5 ? `row ${index} Alpha large` : `row ${index} filler text`,
		).join("\n"),
		"m/unicode.md": "Ålpha ÄLPHA älpha\n",
		// Last in path order, so a worker meets it: `(x+x+)+y` backtracks on it for longer than any test runs.
		"zz/slow.txt": `${"x".repeat(40)}\n`,
	};
	for (let index = 0; index < 1_500; index++) {
		const folder = `d${String(index % 7)}/e${String(index % 3)}`;
		const lines = Array.from({ length: 12 }, (_, line) => `line ${line} of file ${index}`);
		if (index % 37 === 0) lines[index % 12] += " alpha";
		if (index % 111 === 0) lines[(index + 5) % 12] += " ALPHA again";
		files[`${folder}/f${String(index).padStart(4, "0")}.ts`] = `${lines.join("\n")}\n`;
	}
	return files;
}

const QUERIES: GrepToolInput[] = [
	{ pattern: "alpha", literal: true },
	{ pattern: "alpha", literal: true, limit: 1_000 },
	{ pattern: "alpha", ignoreCase: true, limit: 1_000 },
	{ pattern: "[aä]lpha", ignoreCase: true, limit: 1_000 },
	{ pattern: "alpha", context: 2, limit: 30 },
	{ pattern: "alpha", literal: true, limit: 7 },
	{ pattern: "ALPHA again$", limit: 1_000 },
	{ pattern: "Alpha large", literal: true, context: 1 },
	{ pattern: "alpha", glob: "d3/**", limit: 1_000 },
	{ pattern: "nothing matches this", literal: true },
];

describe("grep's built-in engine on worker threads", () => {
	let root = "";
	let remove: () => Promise<void> = async () => undefined;
	beforeAll(async () => {
		({ root, remove } = await makeTempFolder("gantry-grep-threads-"));
		await writeTree(root, wideTree());
		if (prefilterPool.size === 0) return;
		// A large search starts the threads; the searches after it use them from their first chunk.
		await run({ pattern: "warm up", literal: true });
		await vi.waitFor(() => expect(prefilterPool.ready).toBe(true), { timeout: 15_000 });
	});
	afterAll(() => remove());

	const oneThread: GrepOperations = { ...localGrepOperations, open: (path) => localGrepOperations.open(path) };
	const run = async (input: GrepToolInput, operations?: GrepOperations, skip?: (path: string) => boolean) => {
		const tool = createGrepToolDefinition(root, {
			engine: "builtin",
			...(operations ? { operations } : {}),
			...(skip ? { skipPaths: async () => skip } : {}),
		});
		const result = await tool.execute("call", input, undefined, undefined, undefined as never);
		const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("");
		return { text, details: result.details as GrepToolDetails, structured: result.structuredContent };
	};

	it.skipIf(prefilterPool.size === 0)(
		"gives the one-thread answer to every query, with the threads doing the reading",
		async () => {
			// The first search starts the threads; the ones after it use them from their first chunk.
			await run({ pattern: "warm up", literal: true });
			const answeredBefore = prefilterPool.answered;
			for (const input of QUERIES) {
				const [threads, single] = await Promise.all([run(input), run(input, oneThread)]);
				expect(threads, JSON.stringify(input)).toEqual(single);
			}
			expect(prefilterPool.answered).toBeGreaterThan(answeredBefore);
			expect(prefilterPool.running).toBe(prefilterPool.size);
		},
	);

	it.skipIf(prefilterPool.size === 0)("counts skipped files and applies the limit the same way", async () => {
		const skip = (path: string) => path.startsWith("d2/") || path.endsWith("7.ts");
		const [first, , , , , sixth] = QUERIES;
		if (first === undefined || sixth === undefined) throw new Error("the test needs six queries");
		for (const input of [first, sixth, { pattern: "alpha", literal: true, limit: 1 }]) {
			const threads = await run(input, undefined, skip);
			const single = await run(input, oneThread, skip);
			expect(threads, JSON.stringify(input)).toEqual(single);
			expect(threads.details.skippedFiles).toBeGreaterThan(200);
		}
	});

	it.skipIf(prefilterPool.size === 0)("stops with Operation aborted while chunks are with the threads", async () => {
		const controller = new AbortController();
		const tool = createGrepToolDefinition(root, { engine: "builtin" });
		// The regex never finishes on zz/slow.txt: only ending the thread that holds it can stop the search.
		const pending = tool.execute("call", { pattern: "(x+x+)+y" }, controller.signal, undefined, undefined as never);
		setTimeout(() => controller.abort(), 300);
		await expect(pending).rejects.toThrow("Operation aborted");
		// Later searches still work (the threads that were busy were replaced).
		const after = await run({ pattern: "alpha", literal: true, limit: 3 });
		expect(after.details.matchCount).toBe(3);
	});
});
