import { describe, expect, it } from "vitest";
import { stripAnsi, truncateToWidth, visibleWidth, wordWrap, wrapToWidth } from "../../src/tui/ansi.js";
import { ansiTheme } from "../../src/tui/theme.js";

describe("terminal text", () => {
	const red = ansiTheme.error("red");

	it("measures columns without escape sequences, wide characters as two", () => {
		expect(visibleWidth(`a${red}b`)).toBe(5);
		expect(visibleWidth("日本")).toBe(4);
		expect(stripAnsi(ansiTheme.bold(red))).toBe("red");
	});

	it("cuts to a width with an ellipsis and a reset, keeping the styles", () => {
		const cut = truncateToWidth(`${red} and more text`, 6);
		expect(stripAnsi(cut)).toBe("red a…");
		expect(cut.startsWith("\x1b[31m")).toBe(true);
		expect(cut.endsWith("\x1b[0m")).toBe(true);
		expect(truncateToWidth("short", 10)).toBe("short");
	});

	it("wraps by columns, and by words where it can", () => {
		expect(wrapToWidth("abcdefgh", 3)).toEqual(["abc", "def", "gh"]);
		expect(wordWrap("the quick brown fox", 10)).toEqual(["the quick", "brown fox"]);
		expect(wordWrap("a verylongwordthatdoesnotfit b", 8)).toEqual(["a", "verylong", "wordthat", "doesnotf", "it b"]);
	});
});
