import type { Theme } from "@gantry/extensions";

// Renderers style text through a Theme. For HTML the styles become markers first (private-use
// characters that tool output never needs), the whole text is escaped, and then the markers become
// <span> tags: the tools' own renderers draw the frames, and no text they return can become markup.
const OPEN = "\uE000";
const CLOSE = "\uE001";
const STYLES = ["bold", "dim", "italic", "accent", "success", "warning", "error", "muted"] as const;

const mark =
	(index: number) =>
	(text: string): string =>
		text === "" ? text : `${OPEN}${String.fromCharCode(0xe010 + index)}${text}${CLOSE}`;

/** A Theme whose styles are markers for {@link toHtml}. */
export const markerTheme: Theme = Object.fromEntries(
	STYLES.map((name, index) => [name, mark(index)]),
) as unknown as Theme;

/** Text as HTML: `&`, `<`, `>`, `"` and `'` escaped. */
export function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences start with the ESC control character
const ESCAPE_SEQUENCE = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[@-_]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this drops
const CONTROL_OR_MARKER = /[\u0000-\u0008\u000b-\u001f\u007f\uE000-\uE0FF]/g;

/**
 * Drops what a terminal would interpret and a page must not show: ANSI escape sequences and control
 * characters other than newline and tab (and stray markers).
 */
export function cleanText(text: string): string {
	return text.replace(ESCAPE_SEQUENCE, "").replace(CONTROL_OR_MARKER, "");
}

/** Renderer output (with markers) as escaped HTML with `<span class="s-…">` styles. */
export function toHtml(marked: string): string {
	let open = 0;
	const html = escapeHtml(marked).replace(/\uE000([\uE010-\uE01F])|\uE001/g, (_whole, code: string | undefined) => {
		if (code === undefined) {
			if (open === 0) return "";
			open--;
			return "</span>";
		}
		open++;
		return `<span class="s-${STYLES[code.charCodeAt(0) - 0xe010] ?? "muted"}">`;
	});
	return html + "</span>".repeat(open);
}
