import { describe, expect, it } from "vitest";
import { prepareEditArguments } from "../../src/edit/arguments.js";

describe("prepareEditArguments", () => {
	it("wraps the legacy single oldText/newText into edits", () => {
		expect(prepareEditArguments({ path: "a", oldText: "x", newText: "y" })).toEqual({
			path: "a",
			edits: [{ oldText: "x", newText: "y" }],
		});
	});

	it("appends a legacy pair to edits that are also present", () => {
		expect(
			prepareEditArguments({ path: "a", edits: [{ oldText: "1", newText: "2" }], oldText: "x", newText: "y" }),
		).toEqual({
			path: "a",
			edits: [
				{ oldText: "1", newText: "2" },
				{ oldText: "x", newText: "y" },
			],
		});
	});

	it("parses edits sent as a JSON string, and wraps a lone edit object", () => {
		const edits = [{ oldText: "x", newText: "y" }];
		expect(prepareEditArguments({ path: "a", edits: JSON.stringify(edits) })).toEqual({ path: "a", edits });
		expect(prepareEditArguments({ path: "a", edits: JSON.stringify(edits[0]) })).toEqual({ path: "a", edits });
		expect(prepareEditArguments({ path: "a", edits: edits[0] })).toEqual({ path: "a", edits });
	});

	it("drops null fields and leaves other shapes for validation to report", () => {
		expect(prepareEditArguments({ path: "a", edits: [], oldText: null, newText: null })).toEqual({
			path: "a",
			edits: [],
		});
		expect(prepareEditArguments({ path: "a", edits: null })).toEqual({ path: "a" });
		expect(prepareEditArguments({ path: "a", oldText: "x" })).toEqual({
			path: "a",
			edits: [{ oldText: "x", newText: undefined }],
		});
		expect(prepareEditArguments("text")).toBe("text");
		expect(prepareEditArguments(null)).toBe(null);
	});

	it("does not change the object it was given", () => {
		const raw = { path: "a", oldText: "x", newText: "y" };
		prepareEditArguments(raw);
		expect(raw).toEqual({ path: "a", oldText: "x", newText: "y" });
	});

	it("throws a clear error for a string that is not JSON", () => {
		expect(() => prepareEditArguments({ path: "a", edits: "oldText: x" })).toThrow(
			"`edits` is a string that is not valid JSON; send it as an array of { oldText, newText } objects.",
		);
	});
});
