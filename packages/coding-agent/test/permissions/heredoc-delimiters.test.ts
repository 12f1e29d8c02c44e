import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { analyzeShellCommand, createAgentSession, createPermissionPolicy } from "../../src/index.js";
import { compilePermissionRules, judgeCall } from "../../src/permissions/permission-decision.js";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";

/**
 * Runs `command` with real bash in `cwd`, with a stand-in `npm` (it reads its input and exits) first on
 * PATH; returns whether bash created `pwned`.
 */
async function bashCreatesPwned(command: string, cwd: string): Promise<boolean> {
	const bin = join(cwd, "bin");
	await mkdir(bin, { recursive: true });
	await writeFile(join(bin, "npm"), "#!/bin/sh\ncat > /dev/null\n");
	await chmod(join(bin, "npm"), 0o755);
	const result = spawnSync("bash", ["-c", command], {
		cwd,
		env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
		stdio: ["ignore", "ignore", "ignore"],
		timeout: 10_000,
	});
	if (result.error) throw result.error;
	return existsSync(join(cwd, "pwned"));
}

async function decide(command: string, allow: string[], deny: string[], mode: "ask" | "yes") {
	const verdict = await judgeCall(
		compilePermissionRules(allow, deny),
		{ toolName: "bash", input: { command }, cwd: "/tmp", annotations: undefined },
		mode,
	);
	return verdict.decision;
}

/** Delimiters bash reads as `EOF` once it removes their quotes, which tree-sitter compares as written. */
const HIDING = [
	'npm test <<E""OF\nEOF\ntouch pwned\nE""OF',
	"npm test <<E''OF\nEOF\ntouch pwned\nE''OF",
	'npm test <<EOF""\nEOF\ntouch pwned\nEOF""',
	"npm test <<$'EOF'\nEOF\ntouch pwned\n$'EOF'",
	'npm test <<$"EOF"\nEOF\ntouch pwned\n$"EOF"',
	'npm test <<"E"OF\nEOF\ntouch pwned\n"E"OF',
	"npm test <<E\\OF\nEOF\ntouch pwned\nE\\OF",
	"npm test <<$'E\\x4fF'\nEOF\ntouch pwned\n$'E\\x4fF'",
	'npm test <<-E""OF\n\tEOF\ntouch pwned\n\tE""OF',
	// A line continuation in an unquoted body joins `E\` and `OF` into the delimiter.
	"npm test <<EOF\nE\\\nOF\ntouch pwned\nEOF",
	'npm test <<E""OF | cat\nEOF\ntouch pwned\nE""OF',
];

/** Plain delimiters: what follows is data to bash, so only `npm test` runs. */
const DATA_ONLY = [
	"npm test <<'EOF'\n$(touch pwned) `touch pwned`\nEOF",
	'npm test <<"EOF"\n$(touch pwned) `touch pwned`\nEOF',
	"npm test <<\\EOF\n$(touch pwned) `touch pwned`\nEOF",
	"npm test <<-'EOF'\n\t$(touch pwned)\n\tEOF",
	"npm test <<EOF\nplain text\nEOF",
];

/** Bodies the parse ends elsewhere than bash: data to bash here, but judged by no rule either way. */
const MISREAD = ["npm test <<EOF\nEOF \ntouch pwned\nEOF", "npm test <<EOF\nEOF\r\ntouch pwned\nEOF"];

/** Unquoted delimiters: bash runs the substitutions of the body. */
const SUBSTITUTING = [
	"npm test <<EOF\n`touch pwned`\nEOF",
	"npm test <<EOF\nx $(touch pwned) y\nEOF",
	"npm test <<-EOF\n\t`touch pwned`\n\tEOF",
	"npm test <<EOF\n'`touch pwned`'\nEOF",
	'npm test <<EOF\n"$(touch pwned)"\nEOF',
];

describe("a here-document is read where bash ends it", () => {
	for (const command of HIDING) {
		it(`never allows ${JSON.stringify(command)} under bash(npm test:*), and blocks it under a deny rule`, () =>
			withTempDir(async (cwd) => {
				expect(await bashCreatesPwned(command, cwd)).toBe(true);
				expect(await decide(command, ["bash(npm test:*)"], [], "ask")).toBe("ask");
				expect(await decide(command, [], ["bash(touch:*)"], "yes")).toBe("deny");
				const analysis = await analyzeShellCommand(command);
				expect(analysis.parsed).toBe(false);
			}));
	}

	for (const command of DATA_ONLY) {
		it(`allows ${JSON.stringify(command)} under bash(npm test:*): its body is data`, () =>
			withTempDir(async (cwd) => {
				expect(await bashCreatesPwned(command, cwd)).toBe(false);
				expect(await decide(command, ["bash(npm test:*)"], [], "ask")).toBe("allow");
				expect(await decide(command, [], ["bash(touch:*)"], "yes")).toBe("allow");
			}));
	}

	for (const command of MISREAD) {
		it(`asks for ${JSON.stringify(command)}, which the parse ends on another line than bash`, () =>
			withTempDir(async (cwd) => {
				expect(await bashCreatesPwned(command, cwd)).toBe(false);
				expect(await decide(command, ["bash(npm test:*)"], [], "ask")).toBe("ask");
				expect(await decide(command, [], ["bash(touch:*)"], "yes")).toBe("deny");
			}));
	}

	for (const command of SUBSTITUTING) {
		it(`reports the substitution in ${JSON.stringify(command)} and lets a deny rule see its command`, () =>
			withTempDir(async (cwd) => {
				expect(await bashCreatesPwned(command, cwd)).toBe(true);
				const analysis = await analyzeShellCommand(command);
				expect(analysis.commands.map((parsed) => parsed.text)).toContain("touch pwned");
				expect(analysis.problems.join("; ")).toMatch(/command substitution/);
				expect(await decide(command, ["bash(npm test:*)"], [], "ask")).toBe("ask");
				expect(await decide(command, [], ["bash(touch:*)"], "ask")).toBe("deny");
			}));
	}

	it("blocks a hiding here-document without a UI and names why, and nothing hidden runs", () =>
		withTempDir(async (cwd) => {
			const command = 'cat <<E""OF\nEOF\ntouch pwned\nE""OF';
			const model = createFauxModel([{ toolCalls: [{ name: "bash", arguments: { command } }] }, { text: "done" }]);
			const session = await createAgentSession({
				cwd,
				model,
				tools: ["bash"],
				extensions: [createPermissionPolicy({ permissions: { allow: ["bash(cat:*)"] } })],
			});
			try {
				await session.prompt("go");
			} finally {
				await session.dispose();
			}
			const [result] = toolResults(session.messages);
			expect(result?.isError).toBe(true);
			expect(textOf(result ?? { content: [] })).toContain("delimiter is not a plain word");
			expect(existsSync(join(cwd, "pwned"))).toBe(false);
		}));
});
