import { describe, expect, it } from "vitest";
import { type StreamOptions, withoutUndefined } from "../src/index.js";

describe("withoutUndefined", () => {
	it("leaves out undefined-valued keys and keeps every other value, falsy ones included", () => {
		const copy = withoutUndefined({ a: undefined, b: null, c: 0, d: false, e: "", f: "x" });
		expect(copy).toEqual({ b: null, c: 0, d: false, e: "", f: "x" });
		expect(Object.keys(copy)).toEqual(["b", "c", "d", "e", "f"]);
		expect("a" in copy).toBe(false);
	});

	it("is a shallow copy: the input is not changed and nested objects are shared", () => {
		const nested = { inner: undefined };
		const input = { nested, gone: undefined };
		const copy = withoutUndefined(input);
		expect(input).toHaveProperty("gone");
		expect(copy.nested).toBe(nested);
	});

	it("so a spread of options over defaults keeps the defaults for what was not given", () => {
		const defaults: StreamOptions = { maxTokens: 1024, temperature: 0.2 };
		const given: { maxTokens: number | undefined; temperature: number | undefined } = {
			maxTokens: undefined,
			temperature: 0.7,
		};
		expect({ ...defaults, ...withoutUndefined(given) }).toEqual({ maxTokens: 1024, temperature: 0.7 });
		expect({ ...defaults, ...given }.maxTokens).toBeUndefined();
	});
});
