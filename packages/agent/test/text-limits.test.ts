import { describe, expect, it } from "vitest";
import { boundErrorText, elideMiddle, errorText, MAX_ERROR_TEXT_CHARS, throwIfAborted } from "../src/index.js";

describe("elideMiddle", () => {
	it("returns short text as it is", () => {
		expect(elideMiddle("short", 10)).toBe("short");
	});

	it("keeps the start and the end, says how much it left out, and stays within the limit", () => {
		const text = `START${"x".repeat(5_000_000)}END`;
		const bounded = elideMiddle(text, 2000);
		expect(bounded.length).toBeLessThanOrEqual(2000);
		expect(bounded.length).toBeGreaterThan(1900);
		expect(bounded.startsWith("START")).toBe(true);
		expect(bounded.endsWith("END")).toBe(true);
		const elided = Number(/…\[([\d,]+) characters elided\]…/.exec(bounded)?.[1]?.replaceAll(",", ""));
		expect(bounded.length - bounded.match(/…\[[\d,]+ characters elided\]…/)![0].length + elided).toBe(text.length);
	});

	it("never splits a surrogate pair", () => {
		const text = "😀".repeat(3000);
		for (const limit of [100, 101, 102, 2000]) {
			const bounded = elideMiddle(text, limit);
			expect(bounded.length).toBeLessThanOrEqual(limit);
			expect(bounded).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
		}
	});

	it("bounds error texts to MAX_ERROR_TEXT_CHARS", () => {
		expect(boundErrorText("e".repeat(10_000)).length).toBeLessThanOrEqual(MAX_ERROR_TEXT_CHARS);
	});
});

describe("errorText and throwIfAborted", () => {
	it("reads errors, strings and odd values", () => {
		expect(errorText(new Error("boom"))).toBe("boom");
		expect(errorText(new TypeError(""))).toBe("TypeError");
		expect(errorText("plain")).toBe("plain");
		expect(errorText(42)).toBe("42");
		const hostile = {
			toString() {
				throw new Error("no");
			},
		};
		expect(errorText(hostile)).toBe("a thrown object");
	});

	it("throws Operation aborted only for an aborted signal", () => {
		const controller = new AbortController();
		expect(() => throwIfAborted(controller.signal)).not.toThrow();
		expect(() => throwIfAborted(undefined)).not.toThrow();
		controller.abort();
		expect(() => throwIfAborted(controller.signal)).toThrow("Operation aborted");
		expect(() => throwIfAborted(controller.signal, "Stopped")).toThrow("Stopped");
	});
});
