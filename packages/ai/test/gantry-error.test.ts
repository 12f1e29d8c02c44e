import { describe, expect, it } from "vitest";
import {
	errorText,
	GantryAiError,
	GantryError,
	isGantryError,
	UnsupportedStrictJsonSchemaError,
} from "../src/index.js";

describe("GantryError and isGantryError", () => {
	it("recognises @gantry/ai's errors by their brand, with their names and codes as before", () => {
		const error = new GantryAiError("unknown_model", "no such model");
		expect(isGantryError(error)).toBe(true);
		expect(error).toBeInstanceOf(GantryError);
		expect(error).toBeInstanceOf(Error);
		expect([error.name, error.code, error.message]).toEqual(["GantryAiError", "unknown_model", "no such model"]);
		const strict = new UnsupportedStrictJsonSchemaError("no oneOf", "/a");
		expect([isGantryError(strict), strict.name, strict.code, strict.path]).toEqual([
			true,
			"UnsupportedStrictJsonSchemaError",
			"unsupported_strict_schema",
			"/a",
		]);
		// The brand lives on the prototype: an error's own properties are what they were.
		expect(Object.getOwnPropertySymbols(error)).toEqual([]);
		expect(Object.keys(error).sort()).toEqual(["code", "name"]);
	});

	it("says no to other errors and values, and to a look-alike without the brand", () => {
		for (const value of [
			new Error("x"),
			new TypeError("x"),
			{ name: "GantryAiError", code: "unknown_model", message: "x" },
			{ [Symbol.for("gantry.error")]: "yes" },
			{ [Symbol("gantry.error")]: true },
			"GantryError",
			null,
			undefined,
			42,
		]) {
			expect(isGantryError(value)).toBe(false);
		}
		const hostile = new Proxy(
			{},
			{
				get() {
					throw new Error("trap");
				},
			},
		);
		expect(isGantryError(hostile)).toBe(false);
	});

	it("recognises an error of another copy of the package, which instanceof does not", async () => {
		// A second instance of the module, as a second install or a bundle would load it.
		const specifier = "../src/gantry-error.js?second-copy";
		const copy = (await import(/* @vite-ignore */ specifier)) as typeof import("../src/gantry-error.js");
		expect(copy.GantryError).not.toBe(GantryError);
		const foreign = new copy.GantryError("some_code", "from the other copy");
		expect(foreign instanceof GantryError).toBe(false);
		expect(isGantryError(foreign)).toBe(true);
		expect(copy.isGantryError(new GantryAiError("invalid_argument", "x"))).toBe(true);
		// Anything carrying the registered symbol set to true counts, whoever made it.
		const made = Object.assign(new Error("made elsewhere"), { code: "x", [Symbol.for("gantry.error")]: true });
		expect(isGantryError(made)).toBe(true);
	});
});

describe("errorText", () => {
	it("reads errors, error-like objects, strings and odd values, and never throws", () => {
		expect(errorText(new Error("boom"))).toBe("boom");
		expect(errorText(new TypeError(""))).toBe("TypeError");
		expect(errorText({ message: "from another realm" })).toBe("from another realm");
		expect(errorText("plain")).toBe("plain");
		expect(errorText(42)).toBe("42");
		expect(errorText(undefined)).toBe("undefined");
		expect(errorText(null)).toBe("null");
		const hostile = {
			toString() {
				throw new Error("no");
			},
		};
		expect(errorText(hostile)).toBe("a thrown object");
		const trap = new Proxy(
			{},
			{
				get() {
					throw new Error("trap");
				},
			},
		);
		expect(errorText(trap)).toBe("a thrown object");
	});
});
