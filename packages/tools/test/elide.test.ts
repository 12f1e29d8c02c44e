import { describe, expect, it } from "vitest";
import { boundedError } from "../src/bounded-errors.js";
import { elideMiddle, MAX_ERROR_CHARS } from "../src/elide.js";

describe("elideMiddle", () => {
	it("keeps short text as it is", () => {
		expect(elideMiddle("short", 10)).toBe("short");
	});

	it("keeps the start and the end, says how much went, and fits the budget", () => {
		const text = `start-${"x".repeat(10_000)}-end`;
		const elided = elideMiddle(text, 100);
		expect(elided.length).toBeLessThanOrEqual(100);
		expect(elided).toMatch(/^start-x+…\[\d+ characters elided\]…x+-end$/);
		const kept = elided.replace(/…\[\d+ characters elided\]…/, "");
		expect(Number(/\[(\d+) characters/.exec(elided)?.[1])).toBe(text.length - kept.length);
	});

	it("never cuts a surrogate pair in half", () => {
		const elided = elideMiddle("😀".repeat(5_000), 101);
		expect(elided).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
	});
});

describe("boundedError", () => {
	it("returns a short error unchanged and bounds a long one, keeping its code", () => {
		const short = new Error("fine");
		expect(boundedError(short)).toBe(short);
		const long = Object.assign(new Error("y".repeat(50_000)), { code: "ENAMETOOLONG" });
		const bounded = boundedError(long) as NodeJS.ErrnoException;
		expect(bounded.message.length).toBeLessThanOrEqual(MAX_ERROR_CHARS);
		expect(bounded.code).toBe("ENAMETOOLONG");
	});
});
