import { MAX_ERROR_TEXT_CHARS } from "@gantry/agent";
import { describe, expect, it } from "vitest";
import { boundedError } from "../src/bounded-errors.js";

describe("boundedError", () => {
	it("returns a short error unchanged and bounds a long one, keeping its code", () => {
		const short = new Error("fine");
		expect(boundedError(short)).toBe(short);
		const long = Object.assign(new Error("y".repeat(50_000)), { code: "ENAMETOOLONG" });
		const bounded = boundedError(long) as NodeJS.ErrnoException;
		expect(bounded.message.length).toBeLessThanOrEqual(MAX_ERROR_TEXT_CHARS);
		expect(bounded.code).toBe("ENAMETOOLONG");
	});
});
