import { GantryAgentError } from "@gantry/agent";
import { GantryAiError, isGantryError } from "@gantry/ai";
import { ExtensionError } from "@gantry/extensions";
import { SandboxError } from "@gantry/sandbox";
import { PatchParseError, parsePatch } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import { CodingAgentError } from "../src/index.js";

describe("the error classes of the packages below and of @gantry/coding-agent", () => {
	it("are Gantry errors with their own name and code, and a cause when given", () => {
		const cause = new Error("root");
		const errors = [
			new GantryAiError("unknown_api", "a", { cause }),
			new GantryAgentError("agent_busy", "b", { cause }),
			new ExtensionError("invalid_tool", "ext.ts", "c", { cause }),
			new SandboxError("invalid_option", "d", { cause }),
			new CodingAgentError("invalid_option", "e", { cause }),
		];
		expect(errors.map((error) => [isGantryError(error), error.name, error.code, error.message, error.cause])).toEqual([
			[true, "GantryAiError", "unknown_api", "a", cause],
			[true, "GantryAgentError", "agent_busy", "b", cause],
			[true, "ExtensionError", "invalid_tool", "c", cause],
			[true, "SandboxError", "invalid_option", "d", cause],
			[true, "CodingAgentError", "invalid_option", "e", cause],
		]);
		expect(errors.every((error) => error instanceof Error)).toBe(true);
		expect((errors[2] as ExtensionError).source).toBe("ext.ts");
	});

	it("gives a patch that does not parse a code, with its line and what was expected", () => {
		let caught: unknown;
		try {
			parsePatch("*** Begin Patch\nnonsense\n*** End Patch");
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(PatchParseError);
		expect(isGantryError(caught)).toBe(true);
		const error = caught as PatchParseError;
		expect([error.name, error.code, error.line]).toEqual(["PatchParseError", "invalid_patch", 2]);
	});
});
