import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join, relative } from "node:path";
import { wrapToolDefinition } from "@gantry/extensions";
import { Value } from "@sinclair/typebox/value";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditToolDefinition, localEditOperations } from "../src/edit/edit.js";
import { type EditOperations, editSchema } from "../src/edit/types.js";
import { writeFileAtomic } from "../src/workspace/local/atomic-write.js";
import { createWriteToolDefinition } from "../src/write/write.js";

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-edit-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

function editTool(options: { operations?: EditOperations } = {}) {
	return wrapToolDefinition(createEditToolDefinition(folder, options));
}

type Edit = { oldText: string; newText: string };

async function runEdit(path: string, edits: Edit[], signal?: AbortSignal) {
	return editTool().execute("call_1", { path, edits }, signal);
}

function firstText(result: { content: { type: string; text?: string }[] }): string {
	return result.content[0]?.text ?? "";
}

async function fileWith(name: string, content: string | Buffer): Promise<string> {
	const path = join(folder, name);
	await writeFile(path, content);
	return path;
}

describe("edit: applying edits", () => {
	it("replaces one block and reports the edit count, a diff and the first changed line", async () => {
		const path = await fileWith("a.ts", "const a = 1;\nconst b = 2;\nconst c = 3;\n");
		const result = await runEdit("a.ts", [{ oldText: "const b = 2;", newText: "const b = 20;" }]);
		expect(await readFile(path, "utf8")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
		expect(firstText(result)).toBe("Applied 1 edit to a.ts.");
		expect(result.structuredContent).toEqual({ path, editsApplied: 1, firstChangedLine: 2 });
		expect(result.details?.firstChangedLine).toBe(2);
		expect(result.details?.diff).toBe(
			"--- a.ts\n+++ a.ts\n@@ -1,3 +1,3 @@\n const a = 1;\n-const b = 2;\n+const b = 20;\n const c = 3;",
		);
	});

	it("matches every edit against the original text, so earlier edits never shift or feed later ones", async () => {
		const path = await fileWith("a.txt", "one\ntwo\nthree\n");
		const result = await runEdit("a.txt", [
			{ oldText: "two", newText: "three" },
			{ oldText: "one", newText: "one\none and a half\ntwo" },
			{ oldText: "three", newText: "four" },
		]);
		expect(await readFile(path, "utf8")).toBe("one\none and a half\ntwo\nthree\nfour\n");
		expect(firstText(result)).toBe("Applied 3 edits to a.txt.");
	});

	it("keeps CRLF line endings, converting the new lines too, and leaves other endings as they were", async () => {
		const path = await fileWith("crlf.txt", "a\r\nb\r\nc\r\nlone lf\nd\r\n");
		await runEdit("crlf.txt", [{ oldText: "b\nc", newText: "B\nC\nC2" }]);
		expect(await readFile(path, "utf8")).toBe("a\r\nB\r\nC\r\nC2\r\nlone lf\nd\r\n");
	});

	it("edits a file whose only line ending is a lone CR (old Mac) and keeps its CRs", async () => {
		const path = await fileWith("mac.txt", "\uFEFFtitle\rold line\rlast\r");
		const result = await runEdit("mac.txt", [{ oldText: "old line\n", newText: "new line\nadded\n" }]);
		expect(await readFile(path, "utf8")).toBe("\uFEFFtitle\rnew line\radded\rlast\r");
		expect(result.details?.firstChangedLine).toBe(2);
	});

	it("matches an oldText sent with CRLF against an LF file", async () => {
		const path = await fileWith("lf.txt", "a\nb\nc\n");
		await runEdit("lf.txt", [{ oldText: "a\r\nb", newText: "x\r\ny" }]);
		expect(await readFile(path, "utf8")).toBe("x\ny\nc\n");
	});

	it("keeps a UTF-8 byte order mark", async () => {
		const path = await fileWith("bom.txt", Buffer.from("\uFEFFhello\r\nworld\r\n", "utf8"));
		await runEdit("bom.txt", [{ oldText: "hello", newText: "bonjour" }]);
		expect(await readFile(path)).toEqual(Buffer.from("\uFEFFbonjour\r\nworld\r\n", "utf8"));
	});

	it("keeps the file's permission bits and edits the target of a symbolic link", async () => {
		const path = await fileWith("run.sh", "#!/bin/sh\necho one\n");
		await chmod(path, 0o755);
		await symlink(path, join(folder, "link.sh"));
		await runEdit("link.sh", [{ oldText: "one", newText: "two" }]);
		expect(await readFile(path, "utf8")).toBe("#!/bin/sh\necho two\n");
		expect((await stat(path)).mode & 0o777).toBe(0o755);
		expect((await readdir(folder)).sort()).toEqual(["link.sh", "run.sh"]);
	});

	it("resolves ~ to the home folder and strips a leading @", async () => {
		const path = await fileWith("at.txt", "before\n");
		await runEdit("@at.txt", [{ oldText: "before", newText: "after" }]);
		expect(await readFile(path, "utf8")).toBe("after\n");
		const fromHome = relative(homedir(), path);
		await runEdit(`~/${fromHome}`, [{ oldText: "after", newText: "again" }]);
		expect(await readFile(path, "utf8")).toBe("again\n");
	});

	it("edits one line of a 100,000-line file and diffs only around it", async () => {
		const lines = Array.from({ length: 100_000 }, (_, index) => `line ${index + 1}`);
		const path = await fileWith("big.txt", `${lines.join("\n")}\n`);
		const result = await runEdit("big.txt", [{ oldText: "line 77777\n", newText: "changed\n" }]);
		lines[77_776] = "changed";
		expect(await readFile(path, "utf8")).toBe(`${lines.join("\n")}\n`);
		expect(result.details?.firstChangedLine).toBe(77_777);
		expect(result.details?.diff.split("\n")).toHaveLength(2 + 1 + 3 + 2 + 3);
	});
});

describe("edit: fuzzy matching when there is no exact match", () => {
	const cases: { name: string; file: string; edit: Edit; expected: string }[] = [
		{
			name: "trailing spaces in the file",
			file: "if (x) {   \n\treturn 1;\t\n}\n",
			edit: { oldText: "if (x) {\n\treturn 1;\n}", newText: "if (x) {\n\treturn 2;\n}" },
			expected: "if (x) {\n\treturn 2;\n}\n",
		},
		{
			name: "smart quotes in the file",
			file: "say(“hello”, ‘you’);\nnext();\n",
			edit: { oldText: `say("hello", 'you');`, newText: `say("hi");` },
			expected: `say("hi");\nnext();\n`,
		},
		{
			name: "smart quotes in oldText",
			file: `title = "Don't";\n`,
			edit: { oldText: "title = “Don’t”;", newText: `title = "Do";` },
			expected: `title = "Do";\n`,
		},
		{
			name: "an en dash in the file",
			file: "pages 10–20 of the book\n",
			edit: { oldText: "pages 10-20", newText: "pages 30-40" },
			expected: "pages 30-40 of the book\n",
		},
		{
			name: "a no-break space and a thin space in the file",
			file: "price:\u00a010\u2009€ total\n",
			edit: { oldText: "price: 10 €", newText: "price: 12 €" },
			expected: "price: 12 € total\n",
		},
	];
	for (const { name, file, edit, expected } of cases) {
		it(`matches despite ${name}, replacing the original span only`, async () => {
			const path = await fileWith("fuzzy.txt", `keep “this” line\n${file}keep – that\n`);
			const result = await runEdit("fuzzy.txt", [edit]);
			expect(await readFile(path, "utf8")).toBe(`keep “this” line\n${expected}keep – that\n`);
			expect(firstText(result)).toContain("1 matched only after normalising");
		});
	}

	it("prefers an exact match and keeps CRLF when the match is fuzzy", async () => {
		const path = await fileWith("mixed.txt", "a “q”  \r\nb\r\n");
		await runEdit("mixed.txt", [{ oldText: 'a "q"\nb', newText: "c\nd" }]);
		expect(await readFile(path, "utf8")).toBe("c\r\nd\r\n");
	});
});

describe("edit: failures leave the file byte-for-byte unchanged", () => {
	const original = Buffer.from("alpha\nbeta\ngamma\nbeta\nbeta\ndelta “quoted”\n", "utf8");
	const cases: { name: string; edits: Edit[]; message: RegExp }[] = [
		{
			name: "no match",
			edits: [
				{ oldText: "alpha", newText: "ALPHA" },
				{ oldText: "epsilon", newText: "x" },
			],
			message: /^edits\[1\]\.oldText was not found in f\.txt .*Read the file again/,
		},
		{
			name: "several matches",
			edits: [{ oldText: "beta", newText: "BETA" }],
			message: /edits\[0\]\.oldText was found 3 times in f\.txt; add more surrounding context to make it unique/,
		},
		{
			name: "overlapping edits",
			edits: [
				{ oldText: "gamma\nbeta\nbeta", newText: "x" },
				{ oldText: "alpha\nbeta\ngamma", newText: "y" },
			],
			message: /edits\[0\] and edits\[1\] overlap in f\.txt/,
		},
		{ name: "an empty oldText", edits: [{ oldText: "", newText: "x" }], message: /edits\[0\]\.oldText is empty/ },
		{
			name: "an edit that changes nothing",
			edits: [{ oldText: "alpha", newText: "alpha" }],
			message: /edits\[0\] changes nothing/,
		},
		{
			name: "replacements equal to the text already there",
			edits: [{ oldText: 'delta "quoted"', newText: "delta “quoted”" }],
			message: /No changes made to f\.txt/,
		},
		{ name: "no edits at all", edits: [], message: /No edits given/ },
	];
	for (const { name, edits, message } of cases) {
		it(`rejects ${name}`, async () => {
			const path = await fileWith("f.txt", original);
			await expect(runEdit("f.txt", edits)).rejects.toThrow(message);
			expect(await readFile(path)).toEqual(original);
			expect(await readdir(folder)).toEqual(["f.txt"]);
		});
	}

	it("reports a missing file with a hint to use write, and creates nothing", async () => {
		await expect(runEdit("missing.txt", [{ oldText: "a", newText: "b" }])).rejects.toThrow(
			"File not found: missing.txt. To create a new file, use the write tool.",
		);
		expect(await readdir(folder)).toEqual([]);
	});

	it("rejects a folder", async () => {
		await mkdir(join(folder, "sub"));
		await expect(runEdit("sub", [{ oldText: "a", newText: "b" }])).rejects.toThrow("sub is a folder, not a file");
	});

	it("rejects a binary file and a file that is not UTF-8", async () => {
		const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x61, 0x0a]);
		const latin1 = Buffer.from("caf\xe9 au lait\n", "latin1");
		const binaryPath = await fileWith("image.png", binary);
		const latin1Path = await fileWith("latin1.txt", latin1);
		await expect(runEdit("image.png", [{ oldText: "a", newText: "b" }])).rejects.toThrow(/binary file \(7 bytes\)/);
		await expect(runEdit("latin1.txt", [{ oldText: "au", newText: "o" }])).rejects.toThrow(/not valid UTF-8/);
		expect(await readFile(binaryPath)).toEqual(binary);
		expect(await readFile(latin1Path)).toEqual(latin1);
	});

	it("throws Operation aborted for an aborted signal without touching the file", async () => {
		const path = await fileWith("f.txt", original);
		await expect(runEdit("f.txt", [{ oldText: "alpha", newText: "x" }], AbortSignal.abort())).rejects.toThrow(
			"Operation aborted",
		);
		expect(await readFile(path)).toEqual(original);
	});

	it("reports a failed write and leaves neither a changed file nor a temporary file", async () => {
		const path = await fileWith("f.txt", original);
		const operations: EditOperations = {
			...localEditOperations,
			// The target's parent is a file, so the atomic write fails after the edit was planned.
			writeFileAtomic: (target, data) => writeFileAtomic(join(target, "inside"), data),
		};
		const tool = editTool({ operations });
		await expect(
			tool.execute("call_1", { path: "f.txt", edits: [{ oldText: "alpha", newText: "x" }] }),
		).rejects.toThrow(/^Could not save f\.txt \(ENOTDIR.*\); the file was left unchanged\.$/);
		expect(await readFile(path)).toEqual(original);
		expect(await readdir(folder)).toEqual(["f.txt"]);
	});
});

describe("edit: argument shapes", () => {
	const definition = () => createEditToolDefinition(folder);

	function prepare(raw: unknown): unknown {
		const prepared = definition().prepareArguments?.(raw);
		expect(Value.Check(editSchema, prepared)).toBe(true);
		return prepared;
	}

	it("accepts the legacy single { path, oldText, newText }", async () => {
		const path = await fileWith("a.txt", "x = 1\n");
		const prepared = prepare({ path: "a.txt", oldText: "1", newText: "2" });
		expect(prepared).toEqual({ path: "a.txt", edits: [{ oldText: "1", newText: "2" }] });
		await editTool().execute("call_1", prepared as never);
		expect(await readFile(path, "utf8")).toBe("x = 2\n");
	});

	it("accepts edits sent as a JSON string and treats strict-mode nulls as absent", async () => {
		const raw = {
			path: "a.txt",
			edits: JSON.stringify([{ oldText: "a", newText: "b" }]),
			oldText: null,
			newText: null,
		};
		expect(prepare(raw)).toEqual({ path: "a.txt", edits: [{ oldText: "a", newText: "b" }] });
	});

	it("says clearly when edits is a string that is not JSON", () => {
		expect(() => definition().prepareArguments?.({ path: "a.txt", edits: "[{oldText" })).toThrow(/not valid JSON/);
	});
});

describe("edit: the per-file queue", () => {
	it("applies 10 concurrent edits to distinct lines of one file", async () => {
		const lines = Array.from({ length: 10 }, (_, index) => `value ${index} = old`);
		const path = await fileWith("shared.txt", `${lines.join("\n")}\n`);
		const tool = editTool();
		const results = await Promise.all(
			lines.map((line, index) =>
				tool.execute(`call_${index}`, {
					path: "shared.txt",
					edits: [{ oldText: line, newText: `value ${index} = new` }],
				}),
			),
		);
		expect(results).toHaveLength(10);
		const expected = lines.map((_, index) => `value ${index} = new`);
		expect(await readFile(path, "utf8")).toBe(`${expected.join("\n")}\n`);
	});

	it("never interleaves a write and an edit of the same file", async () => {
		const path = await fileWith("race.txt", "start\n");
		for (let round = 0; round < 5; round++) {
			// Fresh tools each round: the reset below is someone else's write, which they would rightly refuse to overwrite.
			const write = wrapToolDefinition(createWriteToolDefinition(folder));
			const edit = editTool();
			const [written, edited] = await Promise.allSettled([
				write.execute("w", { path: "race.txt", content: `start ${round}\nwritten\n` }),
				edit.execute("e", { path: "race.txt", edits: [{ oldText: "start", newText: "edited" }] }),
			]);
			expect(written.status).toBe("fulfilled");
			const content = await readFile(path, "utf8");
			// Either order is a whole serial outcome; an interleaving would lose the edit or the write.
			if (edited.status === "fulfilled" && content.startsWith("edited"))
				expect(content).toBe(`edited ${round}\nwritten\n`);
			else expect(content).toBe(`start ${round}\nwritten\n`);
			await writeFile(path, "start\n");
		}
	});

	it("does not run a queued edit whose signal was aborted while it waited", async () => {
		const path = await fileWith("slow.txt", "a\nb\n");
		let releaseFirst = () => {};
		const firstStarted = new Promise<void>((started) => {
			const operations: EditOperations = {
				...localEditOperations,
				writeFileAtomic: async (target, data) => {
					started();
					await new Promise<void>((release) => {
						releaseFirst = release;
					});
					await localEditOperations.writeFileAtomic(target, data);
				},
			};
			void editTool({ operations }).execute("slow", { path: "slow.txt", edits: [{ oldText: "a", newText: "A" }] });
		});
		await firstStarted;
		const controller = new AbortController();
		const second = editTool().execute(
			"queued",
			{ path: "slow.txt", edits: [{ oldText: "b", newText: "B" }] },
			controller.signal,
		);
		controller.abort();
		releaseFirst();
		await expect(second).rejects.toThrow("Operation aborted");
		expect(await readFile(path, "utf8")).toBe("A\nb\n");
	});
});
