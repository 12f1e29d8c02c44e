import { describe, expect, it } from "vitest";
import { createGlobFilter, expandBraces } from "../../src/search/glob-filter.js";

describe("expandBraces", () => {
	it("expands alternatives, nested ones and several groups", () => {
		expect(expandBraces("*.{ts,tsx}")).toEqual(["*.ts", "*.tsx"]);
		expect(expandBraces("{a,b}/{c,d}")).toEqual(["a/c", "a/d", "b/c", "b/d"]);
		expect(expandBraces("x{a,{b,c}}y")).toEqual(["xay", "xby", "xcy"]);
	});

	it("leaves single, unclosed and escaped braces as they are", () => {
		expect(expandBraces("{a}")).toEqual(["{a}"]);
		expect(expandBraces("a{b,c")).toEqual(["a{b,c"]);
		expect(expandBraces("\\{a,b}")).toEqual(["\\{a,b}"]);
	});

	it("refuses an expansion that explodes", () => {
		expect(() => expandBraces("{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}{a,b}")).toThrow("simplify it");
	});
});

describe("createGlobFilter", () => {
	it("matches a glob without / against names at any depth", () => {
		const filter = createGlobFilter("*.ts");
		expect(filter.includes("a.ts")).toBe(true);
		expect(filter.includes("src/deep/b.ts")).toBe(true);
		expect(filter.includes("src/b.tsx")).toBe(false);
	});

	it("matches a glob with / against the path from the searched folder", () => {
		const filter = createGlobFilter("src/**/*.ts");
		expect(filter.includes("src/a.ts")).toBe(true);
		expect(filter.includes("src/x/y/a.ts")).toBe(true);
		expect(filter.includes("lib/src/a.ts")).toBe(false);
	});

	it("selects files by their own path, not because a folder matched", () => {
		const filter = createGlobFilter("src");
		expect(filter.includes("src/a.ts")).toBe(false);
		expect(filter.includes("lib/src")).toBe(true);
		expect(filter.excludesFolder("src")).toBe(false);
	});

	it("excludes what a !-glob matches, folders included", () => {
		const filter = createGlobFilter("!{dist,*.md}");
		expect(filter.includes("a.ts")).toBe(true);
		expect(filter.includes("docs/a.md")).toBe(false);
		expect(filter.excludesFolder("dist")).toBe(true);
		expect(filter.excludesFolder("src")).toBe(false);
	});
});
