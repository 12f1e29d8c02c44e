import { describe, expect, it } from "vitest";
import { unclosedBracket } from "../src/find/unclosed-bracket.js";

describe("unclosedBracket", () => {
	it.each([
		["src/[", "["],
		["[!", "["],
		["*.{ts,js", "{"],
		["{a,{b}", "{"],
		["@(a|b", "("],
	])("finds the open bracket of %s", (pattern, bracket) => {
		expect(unclosedBracket(pattern)).toBe(bracket);
	});

	it.each(["*.ts", "[abc].ts", "[]a].ts", "[!]].ts", "{a,b}/**", "@(a|b).ts", "\\[literal", "a\\{b", "x}y"])(
		"finds none in %s",
		(pattern) => {
			expect(unclosedBracket(pattern)).toBeUndefined();
		},
	);
});
