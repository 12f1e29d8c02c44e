import { isGantryError } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { CliError, usageError } from "../src/errors.js";

describe("CliError", () => {
	it("is a Gantry error with its name, code and exit code", () => {
		const error = new CliError("ssh_failed", "could not connect");
		expect([isGantryError(error), error.name, error.code, error.exitCode]).toEqual([true, "CliError", "ssh_failed", 1]);
		const usage = usageError("bad option");
		expect([isGantryError(usage), usage.code, usage.exitCode]).toEqual([true, "usage", 2]);
	});
});
