import { describe, expect, it } from "vitest";
import { looseForm, toLooseText } from "../../src/edit/fuzzy-text.js";

describe("loose text", () => {
	it("turns typographic quotes, Unicode dashes and special spaces into ASCII", () => {
		expect(looseForm("‘a’ ‚b‛ “c” „d‟")).toBe(`'a' 'b' "c" "d"`);
		expect(looseForm("a‐b‑c‒d–e—f―g−h")).toBe("a-b-c-d-e-f-g-h");
		expect(looseForm("a\u00a0b\u2009c\u202fd\u3000e\u2002f")).toBe("a b c d e f");
	});

	it("drops spaces and tabs at the end of each line, special spaces included, and keeps the rest", () => {
		expect(looseForm("a  \n\tb\t\n  \nc\u00a0 ")).toBe("a\n\tb\n\nc");
		expect(looseForm("  indented  inside  ")).toBe("  indented  inside");
	});

	it("maps each loose position back to the source, dropped whitespace joining the line end", () => {
		const source = "x “y”  \nz";
		const { text, toSource } = toLooseText(source);
		expect(text).toBe('x "y"\nz');
		expect(Array.from(toSource)).toEqual([0, 1, 2, 3, 4, 7, 8, 9]);
		// A span ending at the line end takes in the dropped trailing spaces.
		expect(source.slice(toSource[2], toSource[5])).toBe("“y”  ");
	});

	it("keeps characters outside the map as they are, surrogate pairs included", () => {
		expect(looseForm("emoji 😀 and ü")).toBe("emoji 😀 and ü");
		expect(looseForm("x".repeat(20_000))).toHaveLength(20_000);
	});
});
