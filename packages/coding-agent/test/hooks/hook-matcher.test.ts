import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { compileHookMatcher } from "../../src/hooks/hook-matcher.js";
import { createAgentSession } from "../../src/index.js";
import { withTempDir } from "../session/helpers.js";

describe("hook matchers", () => {
	it("match everything when absent, empty or *; names and |-lists exactly; anything else as a regular expression", () => {
		const matches = (matcher: string | undefined, ...names: string[]) => compileHookMatcher(matcher, "key")(names);
		expect(matches(undefined, "Bash")).toBe(true);
		expect(matches("", "anything")).toBe(true);
		expect(matches("*", "mcp__github__create_issue")).toBe(true);
		expect(matches("Bash", "Bash", "bash")).toBe(true);
		expect(matches("Bash", "BashOutput")).toBe(false);
		expect(matches("Edit|Write", "Write")).toBe(true);
		expect(matches("Edit|Write", "Read")).toBe(false);
		expect(matches("mcp__github__.*", "mcp__github__create_issue")).toBe(true);
		expect(matches("mcp__github__.*", "mcp__gitlab__create_issue")).toBe(false);
		expect(matches("Notebook.*", "NotebookEdit")).toBe(true);
		expect(matches("^Read$", "Read")).toBe(true);
	});

	it("a matcher that is not a regular expression, or a hook that cannot run, is a settings error naming the key", () =>
		withTempDir(async (cwd) => {
			const model = createFauxModel([]);
			const create = (hooks: unknown) => createAgentSession({ cwd, model, settings: { hooks: hooks as never } });
			await expect(
				create({ PreToolUse: [{ matcher: "Bash(", hooks: [{ type: "command", command: "true" }] }] }),
			).rejects.toThrow(/settings\.hooks\.PreToolUse\[0\]\.matcher: "Bash\(" is not a valid regular expression/);
			await expect(
				create({ PreToolUse: [{ hooks: [{ type: "command", command: "true", timeout: -1 }] }] }),
			).rejects.toMatchObject({
				code: "invalid_option",
				message: expect.stringContaining(
					"settings.hooks.PreToolUse[0].hooks[0].timeout must be a number of seconds above 0",
				),
			});
			await expect(create({ PreToolUsed: [] })).rejects.toThrow(
				/settings\.hooks\.PreToolUsed is not an event Gantry runs hooks for/,
			);
			await expect(create({ Stop: [{ hooks: [{ type: "prompt", prompt: "x" }] }] })).rejects.toThrow(
				/must be "command"/,
			);
		}));
});
