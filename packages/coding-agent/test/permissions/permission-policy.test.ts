import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import type { ExtensionUI } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { classifyTool, createAgentSession, createPermissionPolicy } from "../../src/index.js";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";

function scriptedUI(answers: (string | undefined)[]): ExtensionUI & { asked: string[] } {
	const asked: string[] = [];
	return {
		asked,
		confirm: async () => false,
		select: async (title) => {
			asked.push(title);
			return answers.shift();
		},
		notify: () => {},
	};
}

const writeCall = (content: string) => ({ name: "write", arguments: { path: "out.txt", content } });

describe("permission policy", () => {
	it("classifies by annotations with MCP defaults", () => {
		expect(classifyTool({ readOnlyHint: true })).toBe("read-only");
		expect(classifyTool({ destructiveHint: false, openWorldHint: false })).toBe("read-only");
		expect(classifyTool({ destructiveHint: true })).toBe("needs-approval");
		expect(classifyTool(undefined)).toBe("needs-approval");
	});

	it("runs read-only tools and blocks destructive ones without a UI", () =>
		withTempDir(async (cwd) => {
			await writeFile(join(cwd, "a.txt"), "content\n");
			const model = createFauxModel([
				{ toolCalls: [{ name: "read", arguments: { path: "a.txt" } }, writeCall("x")] },
				{ text: "ok" },
			]);
			const session = await createAgentSession({ cwd, model, extensions: [createPermissionPolicy()] });
			await session.prompt("go");
			const [read, write] = toolResults(session.messages);
			expect(read?.isError).toBe(false);
			expect(write?.isError).toBe(true);
			expect(textOf(write)).toContain("Blocked by the permission policy");
			await expect(readFile(join(cwd, "out.txt"))).rejects.toThrow();
			await session.dispose();
		}));

	it("runs everything in yes mode, and what allow rules name", () =>
		withTempDir(async (cwd) => {
			const model = createFauxModel([
				{ toolCalls: [writeCall("yes"), { name: "bash", arguments: { command: "echo allowed" } }] },
				{ text: "ok" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				extensions: [createPermissionPolicy({ allowTools: ["wr*"], allowCommandPrefixes: ["echo"] })],
			});
			await session.prompt("go");
			const results = toolResults(session.messages);
			expect(results.map((result) => result.isError)).toEqual([false, false]);
			expect(await readFile(join(cwd, "out.txt"), "utf8")).toBe("yes");
			await session.dispose();

			const yesModel = createFauxModel([
				{ toolCalls: [{ name: "bash", arguments: { command: "echo hi" } }] },
				{ text: "ok" },
			]);
			const yes = await createAgentSession({
				cwd,
				model: yesModel,
				extensions: [createPermissionPolicy({ mode: "yes" })],
			});
			await yes.prompt("go");
			expect(toolResults(yes.messages)[0]?.isError).toBe(false);
			await yes.dispose();
		}));

	it("asks through the UI: no blocks, always stops asking for that tool", () =>
		withTempDir(async (cwd) => {
			const ui = scriptedUI(["No", "Always allow write"]);
			const model = createFauxModel([
				{ toolCalls: [writeCall("first")] },
				{ toolCalls: [writeCall("second")] },
				{ toolCalls: [writeCall("third")] },
				{ text: "ok" },
			]);
			const session = await createAgentSession({ cwd, model, ui, extensions: [createPermissionPolicy()] });
			await session.prompt("go");
			const results = toolResults(session.messages);
			expect(results.map((result) => result.isError)).toEqual([true, false, false]);
			expect(textOf(results[0])).toContain("declined");
			expect(ui.asked).toHaveLength(2);
			expect(await readFile(join(cwd, "out.txt"), "utf8")).toBe("third");
			await session.dispose();
		}));

	it("shows the parsed commands and what else would run in the question", () =>
		withTempDir(async (cwd) => {
			const ui = scriptedUI(["No"]);
			const command = "npm test && touch F > out.txt";
			const model = createFauxModel([{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "ok" }]);
			const policy = createPermissionPolicy({ permissions: { allow: ["bash(npm test:*)"] } });
			const session = await createAgentSession({ cwd, model, ui, extensions: [policy] });
			await session.prompt("go");
			expect(ui.asked).toEqual([
				`Allow bash \`${command}\`?\nRuns: npm test · touch F\nAlso: a redirection to a file (> out.txt)\nNo "always": the line does more than run commands (see Also), so it can only be approved once.`,
			]);
			await session.dispose();
		}));
});
