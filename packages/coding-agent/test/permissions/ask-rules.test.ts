import { access } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPermissionPolicy, PermissionHints } from "../../src/index.js";
import { withTempDir } from "../session/helpers.js";
import { runCalls, scriptedUI } from "./run-calls.js";

const exists = (path: string) =>
	access(path).then(
		() => true,
		() => false,
	);
const bash = (command: string) => ({ name: "bash", arguments: { command } });

describe("ask rules", () => {
	it("ask even when an allow rule matches, never offer always, and are blocked without a UI", () =>
		withTempDir(async (cwd) => {
			const settings = { permissions: { allow: ["Bash"], ask: ["Bash(git push:*)"] } };
			const ui = scriptedUI(["No", "Yes"]);
			const outcomes = await runCalls({ cwd, ui, settings }, [
				bash("git push origin main"),
				bash("touch pushed && git push --dry-run || true"),
				bash("touch plain"),
			]);
			expect(outcomes[0]).toContain("The user declined");
			expect(outcomes[1]).toBe("ran");
			expect(outcomes[2]).toBe("ran");
			expect(ui.asked.map((question) => question.options)).toEqual([
				["Yes", "No"],
				["Yes", "No"],
			]);
			expect(ui.asked[0]?.title).toContain('No "always": the ask rule Bash(git push:*) asks every time.');
			const blocked = await runCalls({ cwd, settings }, [bash("git push")]);
			expect(blocked[0]).toContain("must be approved (the ask rule Bash(git push:*);");
			expect(await exists(join(cwd, "pushed"))).toBe(true);
		}));

	it("take a hook's decision: allow runs, ask asks, deny blocks; deny rules still beat an allow", () =>
		withTempDir(async (cwd) => {
			const hints = new PermissionHints();
			const decisions: Record<string, "allow" | "deny" | "ask"> = {
				"touch a": "allow",
				"touch b": "ask",
				"touch c": "deny",
				"rm -f x": "allow",
			};
			const policy = createPermissionPolicy({ hints, permissions: { deny: ["Bash(rm:*)"] } });
			const outcomes = await runCalls(
				{
					cwd,
					extensions: [
						(api) =>
							api.on("tool_call", (event) => {
								const decision = decisions[String(event.input.command)];
								if (decision !== undefined) hints.set(event, { decision, reason: `the hook said ${decision}` });
							}),
						policy,
					],
				},
				[bash("touch a"), bash("touch b"), bash("touch c"), bash("rm -f x")],
			);
			expect(outcomes[0]).toBe("ran");
			expect(outcomes[1]).toContain("must be approved (the hook said ask;");
			expect(outcomes[2]).toBe("Blocked: the hook said deny.");
			expect(outcomes[3]).toContain("the deny rule Bash(rm:*)");
		}));
});
