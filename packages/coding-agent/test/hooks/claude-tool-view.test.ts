import { describe, expect, it } from "vitest";
import { fromClaudeInput, toClaudeResponse, toClaudeView } from "../../src/hooks/claude-tool-view.js";

const context = {
	builtin: true,
	cwd: "/project",
	resolvePath: (path: string) => (path.startsWith("/") ? path : `/project/${path}`),
};

describe("Claude Code's view of a call", () => {
	it("names the builtins as Claude Code does, with absolute paths and Bash's timeout in milliseconds", () => {
		expect(toClaudeView("bash", { command: "ls", timeout: 1.5 }, context)).toEqual({
			toolName: "Bash",
			input: { command: "ls", timeout: 1500 },
			matchNames: ["Bash", "bash"],
		});
		expect(toClaudeView("read", { path: "a.ts", limit: 5 }, context).input).toEqual({
			file_path: "/project/a.ts",
			limit: 5,
		});
		expect(toClaudeView("write", { path: "b.ts", content: "x" }, context).input).toEqual({
			file_path: "/project/b.ts",
			content: "x",
		});
		expect(
			toClaudeView("grep", { pattern: "TODO", path: "src", ignoreCase: true, context: 2, limit: 9 }, context).input,
		).toEqual({
			pattern: "TODO",
			path: "/project/src",
			"-i": true,
			"-C": 2,
			head_limit: 9,
		});
		expect(toClaudeView("find", { pattern: "**/*.ts" }, context)).toMatchObject({
			toolName: "Glob",
			input: { pattern: "**/*.ts" },
		});
		expect(toClaudeView("ls", {}, context)).toMatchObject({ toolName: "LS", input: { path: "/project" } });
		const multi = toClaudeView(
			"edit",
			{
				path: "c.ts",
				edits: [
					{ oldText: "a", newText: "b" },
					{ oldText: "c", newText: "d" },
				],
			},
			context,
		);
		expect(multi.toolName).toBe("MultiEdit");
		expect(multi.matchNames).toEqual(["Edit", "MultiEdit", "edit"]);
	});

	it("leaves other tools, and an extension's tool named like a builtin, as they are", () => {
		expect(toClaudeView("mcp__github__list", { repo: "x" }, context)).toEqual({
			toolName: "mcp__github__list",
			input: { repo: "x" },
			matchNames: ["mcp__github__list"],
		});
		expect(toClaudeView("bash", { command: "ls", timeout: 2 }, { ...context, builtin: false }).input).toEqual({
			command: "ls",
			timeout: 2,
		});
	});

	it("maps updatedInput back onto Gantry's fields", () => {
		const bash = toClaudeView("bash", { command: "ls" }, context);
		expect(fromClaudeInput("bash", bash, { command: "ls -la", timeout: 30000, description: "list" })).toEqual({
			command: "ls -la",
			timeout: 30,
		});
		const read = toClaudeView("read", { path: "a" }, context);
		expect(fromClaudeInput("read", read, { file_path: "/project/b", offset: 3 })).toEqual({
			path: "/project/b",
			offset: 3,
		});
		const edit = toClaudeView("edit", { path: "a", edits: [{ oldText: "x", newText: "y" }] }, context);
		expect(fromClaudeInput("edit", edit, { file_path: "/project/a", old_string: "x", new_string: "z" })).toEqual({
			path: "/project/a",
			edits: [{ oldText: "x", newText: "z" }],
		});
		expect(fromClaudeInput("edit", edit, { file_path: "/p", edits: [{ old_string: "1", new_string: "2" }] })).toEqual({
			path: "/p",
			edits: [{ oldText: "1", newText: "2" }],
		});
		expect(
			fromClaudeInput("edit", edit, { file_path: "/p", old_string: "1", new_string: "2", replace_all: true }),
		).toMatch(/replace_all/);
		const grep = toClaudeView("grep", { pattern: "x" }, context);
		expect(
			fromClaudeInput("grep", grep, { pattern: "y", "-i": true, "-A": 3, "-B": 1, output_mode: "content" }),
		).toEqual({
			pattern: "y",
			ignoreCase: true,
			context: 3,
		});
		expect(fromClaudeInput("bash", bash, "rm -rf /")).toMatch(/must be an object/);
	});

	it("gives PostToolUse Claude Code's usual response fields", () => {
		const write = toClaudeView("write", { path: "a", content: "x" }, context);
		expect(
			toClaudeResponse(write, {
				content: [{ type: "text", text: "Wrote" }],
				structuredContent: { path: "/project/a", bytes: 1, created: true },
			}),
		).toEqual({
			path: "/project/a",
			bytes: 1,
			created: true,
			filePath: "/project/a",
			success: true,
		});
		const bash = toClaudeView("bash", { command: "ls" }, context);
		expect(
			toClaudeResponse(bash, {
				content: [{ type: "text", text: "a\nb" }],
				structuredContent: { output: "a\nb", exit_code: 0 },
			}),
		).toMatchObject({
			stdout: "a\nb",
			stderr: "",
			interrupted: false,
			exit_code: 0,
		});
		const other = toClaudeView("mcp__x__y", {}, context);
		expect(toClaudeResponse(other, { content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] })).toEqual([
			{ type: "image", mimeType: "image/png" },
		]);
	});
});
