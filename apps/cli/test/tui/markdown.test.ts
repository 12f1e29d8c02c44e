import type { Theme } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { MarkdownLines, styleInline } from "../../src/tui/markdown.js";

/** A theme that names each style, so a test reads what was styled how. */
const tagTheme: Theme = {
	bold: (text) => `<b>${text}</b>`,
	dim: (text) => `<dim>${text}</dim>`,
	italic: (text) => `<i>${text}</i>`,
	accent: (text) => `<a>${text}</a>`,
	success: (text) => `<ok>${text}</ok>`,
	warning: (text) => `<warn>${text}</warn>`,
	error: (text) => `<err>${text}</err>`,
	muted: (text) => `<m>${text}</m>`,
};

describe("styleInline", () => {
	it("styles code spans, bold of both kinds and italic, and leaves the rest", () => {
		expect(styleInline("run `pnpm *test*` **now**, __really__ and *soon*.", tagTheme)).toBe(
			"run <a>pnpm *test*</a> <b>now</b>, <b>really</b> and <i>soon</i>.",
		);
		expect(styleInline("**bold with *italic* inside**", tagTheme)).toBe("<b>bold with <i>italic</i> inside</b>");
		expect(styleInline("``a ` b`` and 2 * 3 * 4", tagTheme)).toBe("<a>a ` b</a> and 2 * 3 * 4");
		expect(styleInline("", tagTheme)).toBe("");
	});
});

describe("MarkdownLines", () => {
	it("styles headings, bullets, numbered items, quotes and rules, one line at a time", () => {
		const lines = new MarkdownLines(tagTheme);
		expect(lines.line("# Title ##")).toBe("<b><a>Title</a></b>");
		expect(lines.line("### Smaller *one*")).toBe("<b>Smaller <i>one</i></b>");
		expect(lines.line("  - an `item`")).toBe("  <a>•</a> an <a>item</a>");
		expect(lines.line("12) twelfth")).toBe("<a>12)</a> twelfth");
		expect(lines.line("> quoted **words**")).toBe("<m>│</m> <i>quoted <b>words</b></i>");
		expect(lines.line("- - -")).toBe(`<m>${"─".repeat(20)}</m>`);
		expect(lines.line("plain")).toBe("plain");
	});

	it("keeps a fenced block verbatim until a fence of the same kind, at least as long, with nothing after it", () => {
		const lines = new MarkdownLines(tagTheme);
		expect(lines.line("````ts")).toBe("<m>````ts</m>");
		expect(lines.line("# not a heading")).toBe("<a># not a heading</a>");
		expect(lines.line("~~~~")).toBe("<a>~~~~</a>");
		expect(lines.line("```")).toBe("<a>```</a>");
		expect(lines.line("```` more")).toBe("<a>```` more</a>");
		expect(lines.line("  `````  ")).toBe("<m>  `````  </m>");
		expect(lines.line("# a heading again")).toBe("<b><a>a heading again</a></b>");
		lines.line("```");
		lines.reset();
		expect(lines.line("**out**")).toBe("<b>out</b>");
	});
});
