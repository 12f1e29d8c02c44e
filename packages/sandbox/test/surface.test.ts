import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

describe("@gantry/sandbox surface", () => {
	it("exports exactly the public runtime names", () => {
		expect(Object.keys(api).sort()).toEqual([
			"SANDBOX_REFUSED",
			"SandboxError",
			"createSandboxedWorkspace",
			"isSandboxedWorkspace",
			"resolveSandboxSettings",
			"resolveSettingsPath",
		]);
		expect(api.SANDBOX_REFUSED).toBe("ESANDBOX");
	});

	it("counts only workspaces createSandboxedWorkspace made as sandboxed, whatever shape another object has", () => {
		const lookalike = {
			placeCommand: () => ({ sandboxed: true }),
			sandbox: { active: true },
			autoAllowBashIfSandboxed: true,
		};
		expect(api.isSandboxedWorkspace(lookalike)).toBe(false);
		expect(api.isSandboxedWorkspace(undefined)).toBe(false);
	});
});
