import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionToolContext } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toCompatibleText, toSourcePosition } from "../../src/edit/compatible-text.js";
import { createEditToolDefinition } from "../../src/edit/edit.js";
import { TextMatcher } from "../../src/edit/match.js";

function spanOf(text: string, needle: string): string {
	const result = new TextMatcher(text).match(needle);
	if (result.found !== "once") throw new Error(`expected one match, got ${JSON.stringify(result)}`);
	return text.slice(result.start, result.end);
}

describe("the Unicode compatibility tier of the edit matcher", () => {
	it("matches ASCII punctuation typed for full-width punctuation and maps back to the full-width span", () => {
		const text = "标题：总结\n价格（元）\n结束";
		expect(spanOf(text, "标题:总结\n价格(元)\n")).toBe("标题：总结\n价格（元）\n");
	});

	it("matches full-width letters and digits typed in ASCII", () => {
		expect(spanOf("id = ＩＤ４２;\n", "ＩＤ４２".normalize("NFKC"))).toBe("ＩＤ４２");
	});

	it("matches a composed accent against a decomposed one, and the reverse", () => {
		expect(spanOf("let name = 'Rene\u0301e';\n", "'Ren\u00e9e'")).toBe("'Rene\u0301e'");
		expect(spanOf("let name = 'Ren\u00e9e';\n", "'Rene\u0301e'")).toBe("'Ren\u00e9e'");
	});

	it("works together with the loose tier (trailing blanks and smart quotes in the same span)", () => {
		const text = "say（“hi”）   \nnext";
		expect(spanOf(text, 'say("hi")\n')).toBe("say（“hi”）   \n");
	});

	it("reports ambiguity in the compatible form and prefers an exact match", () => {
		expect(new TextMatcher("ＡＢ and ＡＢ").match("AB")).toEqual({ found: "many", count: 2, fuzzy: true });
		expect(new TextMatcher("ＡＢ and AB").match("AB")).toEqual({ found: "once", start: 7, end: 9, fuzzy: false });
	});

	it("refuses a match whose end falls inside a rewritten character", () => {
		// U+FB01 (ﬁ) becomes "fi": a needle ending after the "f" has no span in the file.
		expect(new TextMatcher("a \ufb01le").match("a f")).toEqual({ found: "none" });
		expect(toSourcePosition(toCompatibleText("\ufb01x"), 1)).toBeUndefined();
		expect(toSourcePosition(toCompatibleText("\ufb01x"), 2)).toBe(1);
	});
});

describe("edit tool with the compatibility tier", () => {
	let folder: string;
	beforeEach(async () => {
		folder = await mkdtemp(join(tmpdir(), "gantry-edit-compatible-"));
	});
	afterEach(async () => {
		await rm(folder, { recursive: true, force: true });
	});

	it("replaces only the matched span and leaves the rest of the file byte for byte", async () => {
		const path = join(folder, "notes.md");
		await writeFile(path, "# 说明\r\n第一步：安装（必需）\r\n第二步：运行\r\n");
		const tool = createEditToolDefinition(folder);
		const result = await tool.execute(
			"call-1",
			{ path: "notes.md", edits: [{ oldText: "第一步:安装(必需)\n", newText: "第一步：安装\n" }] },
			undefined,
			undefined,
			undefined as unknown as ExtensionToolContext,
		);
		expect(await readFile(path, "utf8")).toBe("# 说明\r\n第一步：安装\r\n第二步：运行\r\n");
		expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("Unicode forms") });
	});
});
