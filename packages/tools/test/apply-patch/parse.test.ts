import { describe, expect, it } from "vitest";
import { PatchParseError, parsePatch } from "../../src/apply-patch/parse.js";

function wrap(body: string): string {
	return `*** Begin Patch\n${body}\n*** End Patch`;
}

function parseError(text: string): PatchParseError {
	try {
		parsePatch(text);
	} catch (error) {
		if (error instanceof PatchParseError) return error;
		throw error;
	}
	throw new Error("expected a PatchParseError");
}

describe("parsePatch", () => {
	it("reads add, delete and update (with a move and @@ context) sections in order, with their lines", () => {
		const actions = parsePatch(
			wrap(
				[
					"*** Add File: path/add.py",
					"+abc",
					"+",
					"+def",
					"*** Delete File: path/delete.py",
					"*** Update File: path/update.py",
					"*** Move to: path/update2.py",
					"@@ def f():",
					"-    pass",
					"+    return 123",
				].join("\n"),
			),
		);
		expect(actions).toEqual([
			{ type: "add", path: "path/add.py", content: "abc\n\ndef\n", line: 2 },
			{ type: "delete", path: "path/delete.py", line: 6 },
			{
				type: "update",
				path: "path/update.py",
				movePath: "path/update2.py",
				line: 7,
				chunks: [
					{
						context: "def f():",
						oldLines: ["    pass"],
						newLines: ["    return 123"],
						lines: [
							{ kind: "-", text: "    pass" },
							{ kind: "+", text: "    return 123" },
						],
						endOfFile: false,
						line: 9,
					},
				],
			},
		]);
	});

	it("reads several hunks, blank context lines, a first hunk without @@ and *** End of File", () => {
		const [action] = parsePatch(
			wrap(
				["*** Update File: a.txt", " one", "-two", "+2", "", "@@", " three", "", "-four", "*** End of File"].join("\n"),
			),
		);
		expect(action).toMatchObject({
			type: "update",
			chunks: [
				{ oldLines: ["one", "two", ""], newLines: ["one", "2", ""], endOfFile: false, line: 3 },
				{ oldLines: ["three", "", "four"], newLines: ["three", ""], endOfFile: true, line: 7 },
			],
		});
	});

	it("is as lenient as Codex: padded markers and file headers, CRLF, a heredoc wrapper, blank lines around", () => {
		const expected = [{ type: "delete", path: "gone.txt" }];
		expect(parsePatch("  *** Begin Patch \n  *** Delete File: gone.txt  \n *** End Patch  ")).toMatchObject(expected);
		expect(parsePatch("*** Begin Patch\r\n*** Delete File: gone.txt\r\n*** End Patch\r\n")).toMatchObject(expected);
		for (const opener of ["<<EOF", "<<'EOF'", '<<"EOF"']) {
			expect(parsePatch(`${opener}\n*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\nEOF\n`)).toMatchObject(
				expected,
			);
		}
		expect(parsePatch("\n\n*** Begin Patch\n*** Delete File: gone.txt\n*** End Patch\n\n")).toMatchObject(expected);
		// The @@ line may carry trailing spaces; the context after "@@ " is trimmed.
		const [update] = parsePatch(wrap("*** Update File: a.txt\n@@  \n-a\n+b\n@@   fn main()  \n-c\n+d"));
		expect(update).toMatchObject({ chunks: [{ oldLines: ["a"] }, { context: "fn main()", oldLines: ["c"] }] });
	});

	it("counts lines from the text as given, so an error's line number points into the model's input", () => {
		const error = parseError("\n\n*** Begin Patch\n*** Update File: a.txt\n@@\nnot a hunk line\n*** End Patch");
		expect(error.line).toBe(6);
		expect(error.message).toBe(
			"Invalid patch at line 6: expected a hunk line starting with ' ' (context), '-' (removed) or '+' (added), found \"not a hunk line\".",
		);
	});

	it.each([
		["bad", 1, "'*** Begin Patch' as the first line"],
		["*** Begin Patch\nbad", 2, "'*** End Patch' as the last line"],
		["*** Begin Patch\n*** Frobnicate File: foo\n*** End Patch", 2, "a file header"],
		["*** Begin Patch\n*** Update File: test.py\n*** End Patch", 3, "a '@@' hunk with the changes to test.py"],
		["*** Begin Patch\n*** Update File: a\n@@\n*** End Patch", 4, "hunk lines starting with"],
		["*** Begin Patch\n*** Update File: a\n@@\n-x\nzzz\n*** End Patch", 5, "a '@@' line starting the next hunk"],
		["*** Begin Patch\n*** Add File: \n*** End Patch", 2, "a path after '*** Add File:'"],
		["*** Begin Patch\n*** End Patch\n*** Delete File: a\n*** End Patch", 2, "nothing after '*** End Patch'"],
		["<<'EOF'\n*** Begin Patch\n*** Update File: a\nEOF\n", 3, "'*** End Patch' as the last line"],
	])("refuses %j at line %i, expecting %s", (text, line, expected) => {
		const error = parseError(text);
		expect(error.line).toBe(line);
		expect(error.expected).toContain(expected);
		expect(error.message).toContain(`line ${line}`);
	});

	it("reads an empty patch as no actions (the tool refuses it)", () => {
		expect(parsePatch("*** Begin Patch\n*** End Patch")).toEqual([]);
	});
});
