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
		if (match[1] !== undefined) out += theme.accent(match[2]);
		else if (match[3] !== undefined) out += theme.bold(styleInline(match[3], theme));
		else if (match[4] !== undefined) out += theme.bold(styleInline(match[4], theme));
		else out += theme.italic(match[5]);
		rest = rest.slice(match.index + match[0].length);
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
		const fence = /^\s*(`{3,}|~{3,})(.*)$/.exec(text);
		if (this.#fence !== undefined) {
			if (fence && fence[1][0] === this.#fence[0] && fence[1].length >= this.#fence.length && fence[2].trim() === "") {
				this.#fence = undefined;
				return theme.muted(text);
			}
			return theme.accent(text);
		}
		if (fence) {
			this.#fence = fence[1];
			return theme.muted(text);
		}
		const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(text);
		if (heading) {
			const title = styleInline(heading[2], theme);
			return heading[1].length <= 2 ? theme.bold(theme.accent(title)) : theme.bold(title);
		}
		const bullet = /^(\s*)[-*+]\s+(.*)$/.exec(text);
		if (bullet && !/^\s*([-*_])(\s*\1){2,}\s*$/.test(text)) {
			return `${bullet[1]}${theme.accent("•")} ${styleInline(bullet[2], theme)}`;
		}
		const numbered = /^(\s*)(\d+[.)])\s+(.*)$/.exec(text);
		if (numbered) return `${numbered[1]}${theme.accent(numbered[2])} ${styleInline(numbered[3], theme)}`;
		const quote = /^\s*>\s?(.*)$/.exec(text);
		if (quote) return `${theme.muted("│")} ${theme.italic(styleInline(quote[1], theme))}`;
		if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(text)) return theme.muted("─".repeat(20));
		return styleInline(text, theme);
	}

	/** Forgets an open fence (a new answer starts). */
	reset(): void {
		this.#fence = undefined;
	}
}
