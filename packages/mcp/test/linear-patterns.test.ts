import type { ToolResultMessage } from "@gantry/ai";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { afterEach, describe, expect, test } from "vitest";
import { untrustedSchema } from "../src/client/linear-patterns.js";
import { createMcpExtension } from "../src/index.js";
import { fixtureServer, makeTempDir } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const hostile = `${"a".repeat(35)}!`;
const textOf = (message: ToolResultMessage | undefined) =>
	(message?.content ?? []).map((block) => (block.type === "text" ? block.text : "")).join("");

async function callAll(calls: { name: string; arguments: Record<string, unknown> }[]) {
	const temp = makeTempDir();
	cleanups.push(() => temp.remove());
	const mcp = createMcpExtension({ mcpServers: { big: { ...fixtureServer("big-server"), exposure: "direct" } } });
	cleanups.push(() => mcp.close());
	const session = await createAgentSession({
		cwd: temp.path,
		model: createFauxModel([...calls.map((call) => ({ toolCalls: [call] })), { text: "done" }]),
		noTools: "builtin",
		extensions: [mcp],
	});
	cleanups.push(() => session.dispose());
	await mcp.settled();
	const started = Date.now();
	await session.prompt("go");
	const seconds = (Date.now() - started) / 1000;
	const results = session.messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
	return { results, seconds, session };
}

/**
 * A backtracking engine needs minutes for these inputs (183 s was measured for the 35-character one), RE2
 * microseconds: each test's own timeout is the guard, not a figure compared with the clock.
 */
const HANG_GUARD_MS = 30_000;

describe("an untrusted schema's patterns run in linear time", { timeout: HANG_GUARD_MS }, () => {
	test("^(a+)+$ in an inputSchema against a 35-character argument answers, refused", async () => {
		const { results, seconds } = await callAll([
			{ name: "mcp__big__match", arguments: { text: hostile } },
			{ name: "mcp__big__match", arguments: { text: "aaaa", pattern: "ppp" } },
		]);
		console.log(`hostile pattern call: ${seconds.toFixed(3)} s`);
		const [refused, accepted] = results;
		expect(refused?.isError).toBe(true);
		expect(textOf(refused)).toContain('text: must match pattern "^(a+)+$"');
		expect(accepted?.isError).toBe(false);
		// The lookahead pattern RE2 cannot run is not enforced; the rest still is.
		expect(textOf(accepted)).toBe('matched {"text":"aaaa","pattern":"ppp"}');
	});

	test("patternProperties are checked in RE2 and additionalProperties still hold", async () => {
		const { results } = await callAll([
			{ name: "mcp__big__match", arguments: { text: "a", "x-aaaa": 1 } },
			{ name: "mcp__big__match", arguments: { text: "a", "x-aaaa": "one" } },
			{ name: "mcp__big__match", arguments: { text: "a", other: 1 } },
		]);
		const [ok, wrongType, extra] = results;
		expect(ok?.isError).toBe(false);
		expect(wrongType?.isError).toBe(true);
		expect(textOf(wrongType)).toContain("x-aaaa: must be number");
		expect(extra?.isError).toBe(true);
		expect(textOf(extra)).toContain("must NOT have additional properties");
	});

	test("the schema the session validates has no patterns; the model reads them in the descriptions", () => {
		const { plain, checkPatterns } = untrustedSchema({
			type: "object",
			properties: { text: { type: "string", description: "Text.", pattern: "^(a+)+$" }, pattern: { type: "string" } },
		});
		expect(JSON.stringify(plain)).not.toContain('"pattern":"');
		expect(plain).toMatchObject({
			properties: {
				text: { description: "Text. (Must match the regular expression ^(a+)+$.)" },
				pattern: { type: "string" },
			},
		});
		expect(checkPatterns?.({ text: `${"a".repeat(5000)}!` })).toEqual(['  - text: must match pattern "^(a+)+$"']);
		expect(untrustedSchema({ type: "object" }).checkPatterns).toBeUndefined();
	});

	test("an outputSchema's catastrophic pattern does not freeze the SDK client's structuredContent check", async () => {
		const { results, seconds } = await callAll([{ name: "mcp__big__shout", arguments: {} }]);
		console.log(`hostile output pattern call: ${seconds.toFixed(3)} s`);
		expect(results[0]?.isError).toBe(true);
		expect(textOf(results[0])).toMatch(/output schema|does not match/i);
	});
});
