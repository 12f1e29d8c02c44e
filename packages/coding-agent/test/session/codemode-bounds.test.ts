import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { createAgentSession, NESTED_CALL_LIMITS } from "../../src/index.js";
import { echoTool, textOf, toolResults, withTempDir } from "./helpers.js";

async function runScript(cwd: string, code: string) {
	const echo = echoTool("echo", { exposure: "codemode" });
	const sessionFile = join(cwd, "session.jsonl");
	const model = createFauxModel([{ toolCalls: [{ id: "cm", name: "codemode", arguments: { code } }] }, { text: "ok" }]);
	const session = await createAgentSession({
		cwd,
		model,
		noTools: "builtin",
		tools: ["*", "codemode"],
		customTools: [echo.definition],
		sessionFile,
	});
	await session.prompt("go");
	const [result] = toolResults(session.messages);
	await session.dispose();
	const lines = (await readFile(sessionFile, "utf8")).split("\n").filter((line) => line !== "");
	return { result, lines, echo };
}

describe("codemode records stay bounded", () => {
	it("20,000 calls then a throw: the failure text stays within the output budget, details.calls is capped", () =>
		withTempDir(async (cwd) => {
			const code = 'for (let i = 0; i < 20000; i++) await tools.echo({ text: "n" + i });\nthrow new Error("boom");';
			const { result, lines, echo } = await runScript(cwd, code);
			expect(echo.calls).toHaveLength(20_000);
			const text = textOf(result);
			expect(result?.isError).toBe(true);
			expect(text.length).toBeLessThanOrEqual(40_000);
			expect(text).toContain("Error: boom");
			expect(text).toContain("Tool calls made before the failure (20000, 0 failed)");
			expect(text).toContain('1. echo {"text":"n0"}: ok');
			expect(text).toContain("… and 19970 more");
			expect(text).toContain('20000. echo {"text":"n19999"}: ok');
			const details = result?.details as { calls: unknown[]; omittedCalls?: number };
			expect(details.calls).toHaveLength(NESTED_CALL_LIMITS.maxCalls);
			expect(details.omittedCalls).toBe(20_000 - NESTED_CALL_LIMITS.maxCalls);
			for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThan(1024 * 1024);
		}));

	it("five 4 MiB arguments are kept as their size: every transcript line stays under 1 MB", () =>
		withTempDir(async (cwd) => {
			const code = [
				'const big = "x".repeat(4 * 1024 * 1024);',
				"for (let i = 0; i < 5; i++) await tools.echo({ text: big });",
				'throw new Error("after the big calls");',
			].join("\n");
			const { result, lines } = await runScript(cwd, code);
			expect(result?.isError).toBe(true);
			expect(textOf(result).length).toBeLessThanOrEqual(40_000);
			const details = result?.details as { calls: { arguments?: unknown; argumentsBytes?: number }[] };
			expect(details.calls).toHaveLength(5);
			for (const call of details.calls) {
				expect(call.arguments).toBeUndefined();
				expect(call.argumentsBytes).toBeGreaterThan(4 * 1024 * 1024);
			}
			const total = lines.reduce((sum, line) => sum + Buffer.byteLength(line), 0);
			for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThan(1024 * 1024);
			expect(total).toBeLessThan(2 * 1024 * 1024);
		}));
});
