import { isGantryError } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { GantryMcpError } from "../src/index.js";

describe("GantryMcpError", () => {
	it("is a Gantry error with its name, code and cause", () => {
		const cause = new Error("root");
		const error = new GantryMcpError("server_not_found", "no server x", { cause });
		expect([isGantryError(error), error instanceof Error, error.name, error.code, error.cause]).toEqual([
			true,
			true,
			"GantryMcpError",
			"server_not_found",
			cause,
		]);
	});
});
