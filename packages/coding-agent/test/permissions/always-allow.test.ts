import { mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import type { ExtensionUI } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { createAgentSession, createPermissionPolicy, type PermissionPolicyOptions } from "../../src/index.js";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";

/** A question as the policy asked it. */
interface Asked {
	title: string;
	options: string[];
}

/**
 * Answers questions in order: `"always"` picks the third option whatever its text (so a test also fails
 * when "always" remembers the wrong thing), anything else is the answer itself.
 */
function scriptedUI(answers: string[]): ExtensionUI & { asked: Asked[]; notes: string[] } {
	const asked: Asked[] = [];
	const notes: string[] = [];
	return {
		asked,
		notes,
		confirm: async () => false,
		select: async (title, options) => {
			asked.push({ title, options });
			const answer = answers.shift();
			return answer === "always" ? options[2] : answer;
		},
		notify: (message) => {
			notes.push(message);
		},
	};
}

const bash = (command: string) => ({ toolCalls: [{ name: "bash", arguments: { command } }] });

/** Runs one prompt in which the model calls bash with each command in turn, in a folder with a package.json. */
async function runCommands(cwd: string, commands: string[], answers: string[], options: PermissionPolicyOptions = {}) {
	await writeFile(
		join(cwd, "package.json"),
		JSON.stringify({ name: "sample", private: true, scripts: { test: "echo tests-ran" } }),
	);
	await mkdir(join(cwd, "x"));
	const ui = scriptedUI(answers);
	const model = createFauxModel([...commands.map(bash), { text: "done" }]);
	const session = await createAgentSession({ cwd, model, ui, extensions: [createPermissionPolicy(options)] });
	await session.prompt("go");
	const results = toolResults(session.messages);
	await session.dispose();
	return { ui, results };
}

const NO_ALWAYS = ["Yes", "No"];

describe('"always" for a shell call remembers command prefixes, not the tool', () => {
	it('offers the command prefix, and then runs "npm test -- --watch" without asking', () =>
		withTempDir(async (cwd) => {
			const { ui, results } = await runCommands(cwd, ["npm test", "npm test -- --watch"], ["always"]);
			expect(ui.asked).toHaveLength(1);
			expect(ui.asked[0]?.options).toEqual(["Yes", "No", 'Always allow "npm test" commands']);
			expect(results.map((result) => result.isError)).toEqual([false, false]);
			expect(textOf(results[1])).toContain("tests-ran --watch");
		}));

	it('still asks for "npm install" after "npm test" was always allowed', () =>
		withTempDir(async (cwd) => {
			const { ui, results } = await runCommands(cwd, ["npm test", "npm install"], ["always", "No"]);
			expect(ui.asked.map((question) => question.title.split("\n")[0])).toEqual([
				"Allow bash `npm test`?",
				"Allow bash `npm install`?",
			]);
			expect(ui.asked[1]?.options).toEqual(["Yes", "No", 'Always allow "npm install" commands']);
			expect(textOf(results[1])).toContain("The user declined");
		}));

	it("asks for the rm part of npm test && rm -rf x, and for rm -rf x", () =>
		withTempDir(async (cwd) => {
			const { ui, results } = await runCommands(
				cwd,
				["npm test", "npm test && rm -rf x", "rm -rf x"],
				["always", "No", "No"],
			);
			expect(ui.asked).toHaveLength(3);
			expect(ui.asked[1]?.title).toContain("Runs: npm test · rm -rf x");
			// npm test is covered already, so only rm is offered.
			expect(ui.asked[1]?.options).toEqual(["Yes", "No", 'Always allow "rm" commands']);
			expect(ui.asked[2]?.title.split("\n")[0]).toBe("Allow bash `rm -rf x`?");
			expect(results.slice(1).map((result) => textOf(result))).toEqual([
				expect.stringContaining("The user declined"),
				expect.stringContaining("The user declined"),
			]);
			expect((await stat(join(cwd, "x"))).isDirectory()).toBe(true);
		}));

	it("judges remembered prefixes like allow rules: a redirection to a file still asks", () =>
		withTempDir(async (cwd) => {
			const { ui } = await runCommands(cwd, ["npm test", "npm test > out.txt"], ["always", "No"]);
			expect(ui.asked).toHaveLength(2);
			expect(ui.asked[1]?.title).toContain("Also: a redirection to a file (> out.txt)");
		}));

	it("offers no always for a command substitution or a redirection to a file, and says why", () =>
		withTempDir(async (cwd) => {
			const { ui } = await runCommands(cwd, ["npm test $(rm -rf x)", "npm test > out.txt"], ["No", "No"]);
			expect(ui.asked.map((question) => question.options)).toEqual([NO_ALWAYS, NO_ALWAYS]);
			for (const question of ui.asked) {
				expect(question.title).toContain('No "always": the line does more than run commands');
			}
		}));

	it("offers no always for commands with no safe prefix", () =>
		withTempDir(async (cwd) => {
			const commands = ["sudo rm -rf x", "git -C x push", "npx -y cowsay", 'bash -c "rm -rf x"'];
			const { ui } = await runCommands(cwd, commands, ["No", "No", "No", "No"]);
			expect(ui.asked.map((question) => question.options)).toEqual(commands.map(() => NO_ALWAYS));
			expect(ui.asked[0]?.title).toContain('No "always": `sudo` runs other commands');
			expect(ui.asked[1]?.title).toContain("no sub-command follows `git`");
		}));

	it("remembers every uncovered prefix of a compound line, names the scope, and hands the rules to onAlwaysAllow", () =>
		withTempDir(async (cwd) => {
			const kept: string[][] = [];
			const { ui, results } = await runCommands(
				cwd,
				["npm test && ls -la | wc -l", "ls x && npm test -- -u", "wc -c package.json"],
				["always"],
				{ onAlwaysAllow: (rules) => void kept.push(rules), alwaysAllowScope: "in this project" },
			);
			expect(ui.asked).toHaveLength(1);
			expect(ui.asked[0]?.options[2]).toBe('Always allow "npm test", "ls" and "wc" commands in this project');
			expect(kept).toEqual([["bash(npm test:*)", "bash(ls:*)", "bash(wc:*)"]]);
			expect(results.map((result) => result.isError)).toEqual([false, false, false]);
		}));

	it("keeps the answer for the session when onAlwaysAllow fails, and says so", () =>
		withTempDir(async (cwd) => {
			const { ui, results } = await runCommands(cwd, ["npm test", "npm test"], ["always"], {
				onAlwaysAllow: () => {
					throw new Error("the settings file is not valid JSON");
				},
			});
			expect(ui.asked).toHaveLength(1);
			expect(results.map((result) => result.isError)).toEqual([false, false]);
			expect(ui.notes).toEqual([
				'The answer "always" holds for this session only: the settings file is not valid JSON',
			]);
		}));

	it("judges a call that waited for another question again, so the answer always given meanwhile covers it", () =>
		withTempDir(async (cwd) => {
			await writeFile(join(cwd, "package.json"), JSON.stringify({ scripts: { test: "echo tests-ran" } }));
			const ui = scriptedUI(["always", "No"]);
			// A codemode script's calls run at the same time, so their questions would be asked together.
			const code = [
				'const commands = ["npm test", "npm test -- -u", "npm install"];',
				"const runs = await Promise.allSettled(commands.map((command) => tools.bash({ command })));",
				'return runs.map((run) => run.status).join(",");',
			].join("\n");
			const model = createFauxModel([{ toolCalls: [{ name: "codemode", arguments: { code } }] }, { text: "done" }]);
			const session = await createAgentSession({
				cwd,
				model,
				ui,
				tools: ["*", "codemode"],
				extensions: [createPermissionPolicy()],
			});
			await session.prompt("go");
			expect(ui.asked.map((question) => question.title.split("\n")[0])).toEqual([
				"Allow bash `npm test`?",
				"Allow bash `npm install`?",
			]);
			expect(textOf(toolResults(session.messages)[0])).toContain("fulfilled,fulfilled,rejected");
			await session.dispose();
		}));

	it("a deny rule beats a remembered prefix", () =>
		withTempDir(async (cwd) => {
			const { results } = await runCommands(cwd, ["npm test", "npm test -- --bail"], ["always"], {
				permissions: { deny: ["bash(npm test -- --bail:*)"] },
			});
			expect(textOf(results[1])).toContain("denied by the deny rule bash(npm test -- --bail:*)");
		}));

	it("offers no always for powershell, whose commands are not parsed", () =>
		withTempDir(async (cwd) => {
			const ui = scriptedUI(["No"]);
			const model = createFauxModel([
				{ toolCalls: [{ name: "powershell", arguments: { command: "Get-ChildItem" } }] },
				{ text: "done" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				ui,
				tools: ["powershell"],
				extensions: [createPermissionPolicy()],
			});
			await session.prompt("go");
			expect(ui.asked).toEqual([
				{
					title:
						'Allow powershell `Get-ChildItem`?\nNo "always": powershell commands are not parsed, so no part of one can be remembered.',
					options: NO_ALWAYS,
				},
			]);
			await session.dispose();
		}));
});
