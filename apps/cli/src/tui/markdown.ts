import type { Theme } from "@gantry/extensions";

/** `**bold**`, `__bold__`, `` `code` `` and `*italic*` inside one line; code spans are left as they are. */
export function styleInline(text: string, theme: Theme): string {
	let out = "";
	let rest = text;
	while (rest !== "") {
		const match =
			/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\*\*(?=\S)([\s\S]*?\S)\*\*|__(?=\S)([\s\S]*?\S)__|\*(?=[^\s*])([^*]*?[^\s*])\*/.exec(
				rest,
			);
		if (!match) {
			out += rest;
			break;
		}
		out += rest.slice(0, match.index);
		// Each alternative has its own groups, and those of the alternative that matched all took part.
		const [whole, , code, starred, underlined, italic] = match;
		if (code !== undefined) out += theme.accent(code);
		else if (starred !== undefined) out += theme.bold(styleInline(starred, theme));
		else if (underlined !== undefined) out += theme.bold(styleInline(underlined, theme));
		else if (italic !== undefined) out += theme.italic(italic);
		else throw new Error(`No alternative of the inline pattern took part in matching ${whole}`);
		rest = rest.slice(match.index + whole.length);
	}
	return out;
}

/**
 * Renders Markdown for the terminal one line at a time, as an answer streams: headings bold (without
 * their `#`), `-`/`*`/`+` list items with a bullet, numbered items and quotes marked, `**bold**`,
 * `` `code` `` and `*italic*` styled, and fenced code blocks kept verbatim in the accent colour between
 * dimmed fence lines. Remembers whether it is inside a fence between calls.
 */
export class MarkdownLines {
	readonly #theme: Theme;
	/** The open fence (its backticks or tildes), while inside a code block. */
	#fence: string | undefined;

	constructor(theme: Theme) {
		this.#theme = theme;
	}

	/** The styled form of the next line of the answer. */
	line(text: string): string {
		const theme = this.#theme;
		// Every group below takes part whenever its pattern matches, so a defined group means a match.
		const [, fenceMarks, afterFence] = /^\s*(`{3,}|~{3,})(.*)$/.exec(text) ?? [];
		if (this.#fence !== undefined) {
			if (
				fenceMarks !== undefined &&
				afterFence !== undefined &&
				fenceMarks[0] === this.#fence[0] &&
				fenceMarks.length >= this.#fence.length &&
				afterFence.trim() === ""
			) {
				this.#fence = undefined;
				return theme.muted(text);
			}
			return theme.accent(text);
		}
		if (fenceMarks !== undefined) {
			this.#fence = fenceMarks;
			return theme.muted(text);
		}
		const [, hashes, heading] = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(text) ?? [];
		if (hashes !== undefined && heading !== undefined) {
			const title = styleInline(heading, theme);
			return hashes.length <= 2 ? theme.bold(theme.accent(title)) : theme.bold(title);
		}
		const [, bulletIndent, bulletText] = /^(\s*)[-*+]\s+(.*)$/.exec(text) ?? [];
		if (bulletIndent !== undefined && bulletText !== undefined && !/^\s*([-*_])(\s*\1){2,}\s*$/.test(text)) {
			return `${bulletIndent}${theme.accent("•")} ${styleInline(bulletText, theme)}`;
		}
		const [, numberIndent, number, numberedText] = /^(\s*)(\d+[.)])\s+(.*)$/.exec(text) ?? [];
		if (numberIndent !== undefined && number !== undefined && numberedText !== undefined) {
			return `${numberIndent}${theme.accent(number)} ${styleInline(numberedText, theme)}`;
		}
		const [, quoted] = /^\s*>\s?(.*)$/.exec(text) ?? [];
		if (quoted !== undefined) return `${theme.muted("│")} ${theme.italic(styleInline(quoted, theme))}`;
		if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(text)) return theme.muted("─".repeat(20));
		return styleInline(text, theme);
	}

	/** Forgets an open fence (a new answer starts). */
	reset(): void {
		this.#fence = undefined;
	}
}
