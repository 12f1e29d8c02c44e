import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plainTheme, type Theme, wrapToolDefinition } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditToolDefinition } from "../../src/edit/edit.js";
import { renderDiffResult, renderErrorResult, resultText } from "../../src/edit/render.js";

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-edit-render-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

async function fileWith(name: string, content: string): Promise<void> {
	await writeFile(join(folder, name), content);
}

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

describe("edit tool rendering", () => {
	const marking: Theme = {
		bold: (text) => `<b>${text}</b>`,
		dim: (text) => text,
		italic: (text) => text,
		accent: (text) => `<a>${text}</a>`,
		success: (text) => `<ok>${text}</ok>`,
		warning: (text) => text,
		error: (text) => `<err>${text}</err>`,
		muted: (text) => `<m>${text}</m>`,
	};

	it("shows the call on one line and the diff coloured by line role", async () => {
		await fileWith("r.txt", "one\ntwo\n");
		const definition = createEditToolDefinition(folder);
		const edits = [
			{ oldText: "one", newText: "uno" },
			{ oldText: "two", newText: "dos" },
		];
		expect(definition.renderCall?.({ path: "r.txt", edits }, marking)).toBe(
			"<b>edit</b> <a>r.txt</a><m> (2 edits)</m>",
		);
		const result = await wrapToolDefinition(definition).execute("c", { path: "r.txt", edits });
		const rendered = definition.renderResult?.(result, { expanded: false, isPartial: false }, marking) ?? "";
		expect(rendered.split("\n")).toEqual([
			"<ok>Applied 2 edits to r.txt.</ok>",
			"<a>@@ -1,2 +1,2 @@</a>",
			"<err>-one</err>",
			"<err>-two</err>",
			"<ok>+uno</ok>",
			"<ok>+dos</ok>",
		]);
	});

	it("folds a long diff unless expanded, and shows errors in the error colour", async () => {
		const lines = Array.from({ length: 40 }, (_, index) => `l${index}`);
		await fileWith("long.txt", `${lines.join("\n")}\n`);
		const definition = createEditToolDefinition(folder);
		const result = await wrapToolDefinition(definition).execute("c", {
			path: "long.txt",
			edits: [{ oldText: lines.join("\n"), newText: lines.map((line) => line.toUpperCase()).join("\n") }],
		});
		const collapsed = definition.renderResult?.(result, { expanded: false, isPartial: false }, marking) ?? "";
		const expanded = definition.renderResult?.(result, { expanded: true, isPartial: false }, marking) ?? "";
		expect(collapsed.split("\n")).toHaveLength(22);
		expect(collapsed).toContain("<m>… 61 more diff lines (expand to see all)</m>");
		expect(expanded.split("\n")).toHaveLength(82);
		const error = { content: [{ type: "text" as const, text: "File not found: x\nmore" }], isError: true };
		expect(definition.renderResult?.(error, { expanded: false, isPartial: false }, marking)).toBe(
			"<err>File not found: x</err>",
		);
	});
});
