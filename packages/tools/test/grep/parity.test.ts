import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGrepToolDefinition } from "../../src/grep/grep.js";
import type { GrepToolInput } from "../../src/grep/types.js";
import { makeTempFolder, writeSearchFixture, writeTree } from "../search/fixture.js";
import { ripgrepAvailable } from "./ripgrep-available.js";

const QUERIES: GrepToolInput[] = [
	{ pattern: "alpha" },
	{ pattern: "alpha", ignoreCase: true },
	{ pattern: "ALPHA", literal: true },
	{ pattern: "älpha", ignoreCase: true },
	{ pattern: "a.pha" },
	{ pattern: "a.pha", literal: true },
	{ pattern: "alpha$" },
	{ pattern: "^alpha" },
	{ pattern: "alpha\\$", literal: false },
	{ pattern: "alpha$", literal: true },
	{ pattern: "-flag" },
	{ pattern: "alpha", glob: "*.ts" },
	{ pattern: "alpha", glob: "*.{ts,md}" },
	{ pattern: "alpha", glob: "sub/**" },
	{ pattern: "alpha", glob: "!*.ts" },
	{ pattern: "alpha", glob: "*.log" },
	{ pattern: "alpha", context: 1 },
	{ pattern: "alpha", context: 3 },
	{ pattern: "alpha", limit: 3 },
	{ pattern: "alpha", limit: 1, context: 2 },
	{ pattern: "alpha", path: "sub" },
	{ pattern: "alpha", path: "build" },
	{ pattern: "alpha", path: "crlf.txt" },
	{ pattern: "alpha", path: "bin.dat" },
	{ pattern: "e", context: 1, limit: 7 },
	{ pattern: "nothing-matches-this" },
	{ pattern: "x{400}" },
	{ pattern: "^$" },
	{ pattern: "[0-9]+;" },
	{ pattern: "\\bbeta\\b" },
	{ pattern: "alpha", path: "big", context: 2 },
	{ pattern: "alpha", path: "big", limit: 3, context: 1 },
	{ pattern: "line 1499[0-9]", path: "big/large.txt", context: 1 },
];

/** Files past the built-in engine's 256 KiB buffer: streamed, with matches and context across chunks. */
function bigFiles(): Record<string, string | Buffer> {
	const large = Array.from({ length: 30_000 }, (_, index) =>
		[0, 4999, 14_999, 21_845, 29_999].includes(index) ? `line ${index + 1} alpha` : `line ${index + 1}`,
	);
	const lateNul = Buffer.concat([
		Buffer.from(`alpha early\n${"text\n".repeat(70_000)}`),
		Buffer.from([0]),
		Buffer.from("\nalpha late\n"),
	]);
	return {
		"big/large.txt": `${large.join("\n")}\n`,
		"big/late-nul.bin": lateNul,
		"big/long-line.txt": `start\n${"z".repeat(600_000)} alpha at the end of a long line\nafter\n`,
		"big/crlf-large.txt": Array.from({ length: 40_000 }, (_, index) => (index % 9999 === 0 ? "alpha\r" : "row\r")).join(
			"\n",
		),
	};
}

describe.skipIf(!ripgrepAvailable)("grep engines give identical output", () => {
	let root: string;
	let remove: () => Promise<void>;
	beforeAll(async () => {
		({ root, remove } = await makeTempFolder());
		await writeSearchFixture(root);
		await writeTree(root, {
			"many/1.txt": Array.from({ length: 50 }, (_, index) => `line ${index} alpha`).join("\n"),
			"many/2.txt": Array.from({ length: 30 }, (_, index) => (index % 3 === 0 ? "alpha" : "other")).join("\n"),
			...bigFiles(),
		});
	});
	afterAll(() => remove());

	const builtin = () => createGrepToolDefinition(root, { engine: "builtin" });
	const ripgrep = () => createGrepToolDefinition(root, { engine: "ripgrep" });

	for (const query of QUERIES) {
		it(JSON.stringify(query), async () => {
			const [fromBuiltin, fromRipgrep] = await Promise.all([
				builtin().execute("call", query, undefined, undefined, undefined as never),
				ripgrep().execute("call", query, undefined, undefined, undefined as never),
			]);
			expect(fromBuiltin.details?.engine).toBe("builtin");
			expect(fromRipgrep.details?.engine).toBe("ripgrep");
			expect(fromRipgrep.content).toEqual(fromBuiltin.content);
			expect(fromRipgrep.structuredContent).toEqual(fromBuiltin.structuredContent);
		});
	}
});
