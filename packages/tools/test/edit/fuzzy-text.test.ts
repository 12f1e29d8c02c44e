import { describe, expect, it } from "vitest";
import { looseForm, toLooseText, toSourceOffset } from "../../src/edit/fuzzy-text.js";

const BLANKS = new Set([" ", "\t", "\u00a0", "\u1680", "\u202f", "\u205f", "\u3000"]);
for (let code = 0x2000; code <= 0x200a; code++) BLANKS.add(String.fromCharCode(code));

/** A slow, obviously right loose form: character by character, with the source position of each kept one. */
function reference(source: string): { text: string; positions: number[] } {
	const text: string[] = [];
	const positions: number[] = [];
	let pending: number[] = [];
	const standIn = (character: string) => {
		if ("‘’‚‛".includes(character)) return "'";
		if ("“”„‟".includes(character)) return '"';
		if ("‐‑‒–—―−".includes(character)) return "-";
		return BLANKS.has(character) && character !== "\t" ? " " : character;
	};
	for (let index = 0; index < source.length; index++) {
		const character = source.charAt(index);
		if (BLANKS.has(character)) {
			pending.push(index);
			continue;
		}
		if (character !== "\n")
			for (const position of pending) {
				text.push(standIn(source.charAt(position)));
				positions.push(position);
			}
		pending = [];
		text.push(standIn(character));
		positions.push(index);
	}
	positions.push(source.length);
	return { text: text.join(""), positions };
}

describe("loose text", () => {
	it("turns typographic quotes, Unicode dashes and special spaces into ASCII", () => {
		expect(looseForm("‘a’ ‚b‛ “c” „d‟")).toBe(`'a' 'b' "c" "d"`);
		expect(looseForm("a‐b‑c‒d–e—f―g−h")).toBe("a-b-c-d-e-f-g-h");
		expect(looseForm("a\u00a0b\u2009c\u202fd\u3000e\u2002f")).toBe("a b c d e f");
	});

	it("drops blanks at the end of each line, special spaces included, and keeps the rest", () => {
		expect(looseForm("a  \n\tb\t\n  \nc\u00a0 ")).toBe("a\n\tb\n\nc");
		expect(looseForm("  indented  inside  ")).toBe("  indented  inside");
		expect(looseForm("quote at the end “\nand “")).toBe('quote at the end "\nand "');
	});

	it("maps each loose position back to the source, dropped blanks joining the line end", () => {
		const source = "x “y”  \nz";
		const loose = toLooseText(source);
		expect(loose.text).toBe('x "y"\nz');
		const positions = Array.from({ length: loose.text.length + 1 }, (_, offset) => toSourceOffset(loose, offset));
		expect(positions).toEqual([0, 1, 2, 3, 4, 7, 8, 9]);
		// A span ending at the line end takes in the dropped trailing spaces.
		expect(source.slice(toSourceOffset(loose, 2), toSourceOffset(loose, 5))).toBe("“y”  ");
	});

	it("returns text that needs no loosening as it is, positions unchanged", () => {
		const source = "plain 'ascii' - text\n  indented\n";
		expect(toLooseText(source)).toEqual({ text: source, dropAt: [], droppedUpTo: [] });
		expect(toLooseText("trailing \t").dropAt).toEqual([8]);
	});

	it("keeps other characters as they are, surrogate pairs included", () => {
		expect(looseForm("emoji 😀 and ü")).toBe("emoji 😀 and ü");
	});

	it("agrees with a character-by-character reference on random text", () => {
		const alphabet = ["a", "b", " ", "\t", "\n", "\u00a0", "\u2009", "“", "’", "–", "−", "😀", "\u3000"];
		let seed = 7;
		const random = (limit: number) => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed % limit;
		};
		for (let round = 0; round < 500; round++) {
			const source = Array.from({ length: random(40) }, () => alphabet[random(alphabet.length)]).join("");
			const expected = reference(source);
			const loose = toLooseText(source);
			expect(loose.text, JSON.stringify(source)).toBe(expected.text);
			const positions = expected.positions.map((_, offset) => toSourceOffset(loose, offset));
			expect(positions, JSON.stringify(source)).toEqual(expected.positions);
		}
	});
});
