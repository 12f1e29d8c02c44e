import { describe, expect, it } from "vitest";
import { TextMatcher } from "../../src/edit/match.js";

describe("TextMatcher", () => {
	it("finds a unique exact match", () => {
		expect(new TextMatcher("abc def ghi").match("def")).toEqual({ found: "once", start: 4, end: 7, fuzzy: false });
	});

	it("counts every exact occurrence when there are several", () => {
		expect(new TextMatcher("ab ab ab ab").match("ab")).toEqual({ found: "many", count: 4, fuzzy: false });
	});

	it("does not fall back to the loose form when the exact text is ambiguous", () => {
		expect(new TextMatcher("x-1 x-1 x–1").match("x-1")).toEqual({ found: "many", count: 2, fuzzy: false });
	});

	it("falls back to the loose form and maps the match to the source span", () => {
		const text = "a\nsay “hi” \t\nb";
		const result = new TextMatcher(text).match('say "hi"\n');
		expect(result).toMatchObject({ found: "once", fuzzy: true });
		if (result.found !== "once") throw new Error("no match");
		expect(text.slice(result.start, result.end)).toBe("say “hi” \t\n");
	});

	it("matches a needle with typographic quotes in a file that has plain ones", () => {
		const text = 'say("hi");\nsay("ho");\n';
		expect(new TextMatcher(text).match("say(“ho”);")).toEqual({ found: "once", start: 11, end: 21, fuzzy: true });
	});

	it("reports loose ambiguity and absence", () => {
		const matcher = new TextMatcher("“a” and “a”");
		expect(matcher.match('"a"')).toEqual({ found: "many", count: 2, fuzzy: true });
		expect(matcher.match("zzz")).toEqual({ found: "none" });
		expect(matcher.match("   ")).toEqual({ found: "none" });
	});
});
