import { describe, expect, it } from "vitest";
import { markdownToHtml } from "../../src/export/markdown-html.js";

describe("markdownToHtml", () => {
	it("turns headings, list items and paragraphs into escaped HTML with inline styles", () => {
		expect(markdownToHtml("## Plan <now>\n\n- a `b` **c**\nsome *words*")).toBe(
			[
				"<h4>Plan &#60;now&#62;</h4>",
				"<p>• a <code>b</code> <strong>c</strong></p>",
				"<p>some <em>words</em></p>",
			].join("\n"),
		);
	});

	it("keeps a fenced block until a fence of the same kind and at least its length, and closes one left open", () => {
		expect(markdownToHtml("~~~~\n# <kept>\n```\n~~~\n~~~~~\nafter\n```\nopen")).toBe(
			["<pre><code># &#60;kept&#62;\n```\n~~~</code></pre>", "<p>after</p>", "<pre><code>open</code></pre>"].join("\n"),
		);
	});
});
