import { plainTheme } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { renderDiffResult, renderErrorResult, resultText } from "../../src/edit/render.js";

const theme = {
	...plainTheme,
	success: (text: string) => `+(${text})`,
	error: (text: string) => `-(${text})`,
	muted: (text: string) => `~(${text})`,
};

describe("edit rendering helpers", () => {
	it("drops the file headers and colours added and removed lines", () => {
		const diff = "--- f\n+++ f\n@@ -1,1 +1,1 @@\n-a\n+b\n\\ No newline at end of file";
		expect(renderDiffResult("Done.", diff, false, theme).split("\n")).toEqual([
			"+(Done.)",
			"@@ -1,1 +1,1 @@",
			"-(-a)",
			"+(+b)",
			"~(\\ No newline at end of file)",
		]);
	});

	it("says how many lines a collapsed diff hides, in the singular too", () => {
		const diff = ["@@ -1,21 +1,21 @@", ...Array.from({ length: 20 }, (_, index) => ` ${index}`)].join("\n");
		expect(renderDiffResult("s", diff, false, theme).split("\n").at(-1)).toBe(
			"~(… 1 more diff line (expand to see all))",
		);
		expect(renderDiffResult("s", diff, true, theme).split("\n")).toHaveLength(22);
	});

	it("shows the first line of an error unless expanded, and reads the first text block", () => {
		expect(renderErrorResult("one\ntwo", false, theme)).toBe("-(one)");
		expect(renderErrorResult("one\ntwo", true, theme)).toBe("-(one\ntwo)");
		expect(
			resultText({
				content: [
					{ type: "image", data: "", mimeType: "image/png" },
					{ type: "text", text: "t" },
				],
			}),
		).toBe("t");
		expect(resultText({ content: [] })).toBe("");
	});
});
