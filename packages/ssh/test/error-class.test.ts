import { isGantryError } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { SshError } from "../src/index.js";

describe("SshError", () => {
	it("is a Gantry error with its name, code and cause", () => {
		const cause = new Error("root");
		const error = new SshError("host_key_unknown", "unknown key", { cause });
		expect([isGantryError(error), error instanceof Error, error.name, error.code, error.cause]).toEqual([
			true,
			true,
			"SshError",
			"host_key_unknown",
			cause,
		]);
	});
});
