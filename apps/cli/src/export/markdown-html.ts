import { escapeHtml } from "./html-theme.js";

/** Inline Markdown of one escaped line: `code`, **bold**, *italic*. */
function inline(escaped: string): string {
	return escaped
		.replace(/`([^`]+)`/g, "<code>$1</code>")
		.replace(/\*\*(\S(?:.*?\S)?)\*\*/g, "<strong>$1</strong>")
		.replace(/(^|[^*])\*(\S(?:[^*]*?\S)?)\*(?!\*)/g, "$1<em>$2</em>");
}

/**
 * Assistant Markdown as HTML: fenced code blocks, headings, list items and paragraphs, inline code,
 * bold and italic. Everything is escaped first, so no text of the answer can become markup.
 */
export function markdownToHtml(text: string): string {
	const out: string[] = [];
	let code: string[] | undefined;
	let fence = "";
	for (const line of text.split("\n")) {
		const [, fenceMarks] = /^\s*(`{3,}|~{3,})/.exec(line) ?? [];
		if (code !== undefined) {
			if (fenceMarks !== undefined && fenceMarks[0] === fence[0] && fenceMarks.length >= fence.length) {
				out.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
				code = undefined;
			} else code.push(line);
			continue;
		}
		if (fenceMarks !== undefined) {
			code = [];
			fence = fenceMarks;
			continue;
		}
		if (line.trim() === "") continue;
		const escaped = escapeHtml(line);
		const [, , heading] = /^(#{1,6})\s+(.*)$/.exec(escaped) ?? [];
		if (heading !== undefined) out.push(`<h4>${inline(heading)}</h4>`);
		else if (/^\s*[-*+]\s+/.test(line)) out.push(`<p>• ${inline(escaped.replace(/^\s*[-*+]\s+/, ""))}</p>`);
		else out.push(`<p>${inline(escaped)}</p>`);
	}
	if (code !== undefined) out.push(`<pre><code>${escapeHtml(code.join("\n"))}</code></pre>`);
	return out.join("\n");
}
