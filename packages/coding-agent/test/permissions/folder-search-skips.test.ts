import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";
import { type Call, callResults } from "./run-calls.js";

const rgRuns = (() => {
	try {
		execFileSync("rg", ["--version"], { stdio: "ignore" });
		return true;
	} catch {
		return false;
	}
})();
const engines = rgRuns ? (["builtin", "ripgrep"] as const) : (["builtin"] as const);

const call = (name: string, args: Record<string, unknown>): Call => ({ name, arguments: args });

async function secrets(cwd: string): Promise<void> {
	await mkdir(join(cwd, "app"));
	await writeFile(join(cwd, ".env"), "SECRET=hunter2\n");
	await writeFile(join(cwd, "app", ".env"), "SECRET=hunter3\n");
	await writeFile(join(cwd, "app", "main.ts"), "const SECRET_NAME = 'API';\n");
}

describe("a folder search leaves the files a read rule covers unread", () => {
	for (const engine of engines) {
		it(`${engine}: grep over . under Read(**/.env) shows no .env line and says it skipped 2 files`, () =>
			withTempDir(async (cwd) => {
				await secrets(cwd);
				const results = await callResults(
					{
						cwd,
						permissionMode: "bypassPermissions",
						settings: { permissions: { deny: ["Read(**/.env)"] } },
						toolOptions: { grep: { engine } },
					},
					[
						call("grep", { pattern: "SECRET", path: "." }),
						call("grep", { pattern: "hunter" }),
						call("grep", { pattern: "SECRET", path: ".", glob: "**/.env" }),
					],
				);
				for (const result of results) {
					expect(result.isError).toBe(false);
					expect(result.text).not.toContain("hunter");
					expect(result.text).toContain("[Skipped 2 files that a permission rule keeps from being read]");
				}
				expect(results[0]?.text).toContain("app/main.ts");
			}));
	}

	it("ask rules and Grep(…) rules keep files out too; Glob(…) rules and write rules do not", () =>
		withTempDir(async (cwd) => {
			await secrets(cwd);
			await writeFile(join(cwd, "notes.md"), "SECRET=hunter5\n");
			await writeFile(join(cwd, "todo.txt"), "SECRET=hunter6\n");
			const results = await callResults(
				{
					cwd,
					permissionMode: "bypassPermissions",
					settings: {
						permissions: {
							ask: ["read(app/**)"],
							deny: ["Grep(notes.md)", "Glob(todo.txt)", "Edit(.env)"],
						},
					},
				},
				[call("grep", { pattern: "SECRET=" })],
			);
			expect(results[0]?.text).toContain("hunter2");
			expect(results[0]?.text).toContain("hunter6");
			expect(results[0]?.text).not.toMatch(/hunter3|hunter5/);
			expect(results[0]?.text).toContain("[Skipped 3 files");
		}));

	it("follows the searched folder's links: a link to the secret folder does not open it", () =>
		withTempDir(async (cwd) => {
			await mkdir(join(cwd, "secret"));
			await writeFile(join(cwd, "secret", "a.txt"), "TOKEN=hunter7\n");
			await symlink(join(cwd, "secret"), join(cwd, "alias"));
			const results = await callResults(
				{ cwd, permissionMode: "bypassPermissions", settings: { permissions: { deny: ["Read(secret/*.txt)"] } } },
				[call("grep", { pattern: "TOKEN", path: "alias" }), call("grep", { pattern: "TOKEN", path: "alias/" })],
			);
			for (const result of results) {
				expect(result.text).not.toContain("hunter7");
				expect(result.text).toContain("[Skipped 1 file that");
			}
		}));

	it("find and ls show a covered name, never its content", () =>
		withTempDir(async (cwd) => {
			await secrets(cwd);
			const results = await callResults(
				{ cwd, permissionMode: "bypassPermissions", settings: { permissions: { deny: ["Read(**/.env)"] } } },
				[call("find", { pattern: "**/.env" }), call("ls", { path: "app" })],
			);
			expect(results[0]).toMatchObject({ isError: false });
			expect(results[0]?.text).toContain("app/.env");
			expect(results[1]?.text).toContain(".env");
			for (const result of results) expect(result.text).not.toContain("hunter");
		}));

	it("a grep a codemode script makes skips the same files", () =>
		withTempDir(async (cwd) => {
			await secrets(cwd);
			const code = [
				'const found = await tools.grep({ pattern: "SECRET", path: "." });',
				"return JSON.stringify(found);",
			].join("\n");
			const model = createFauxModel([{ toolCalls: [{ name: "codemode", arguments: { code } }] }, { text: "ok" }]);
			const session = await createAgentSession({
				cwd,
				model,
				tools: ["grep", "codemode"],
				permissionMode: "bypassPermissions",
				settings: { permissions: { deny: ["Read(**/.env)"] } },
			});
			try {
				await session.prompt("go");
				const text = textOf(toolResults(session.messages)[0]);
				expect(text).toContain("Script completed");
				expect(text).toContain("app/main.ts");
				expect(text).not.toContain("hunter");
				expect(text).toContain('"skippedFiles":2');
			} finally {
				await session.dispose();
			}
		}));
});
