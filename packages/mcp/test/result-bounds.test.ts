import { readFileSync } from "node:fs";
import type { ToolResultMessage } from "@gantry/ai";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { afterEach, describe, expect, test } from "vitest";
import { maxOutputTokens } from "../src/client/result-bounds.js";
import { createMcpExtension, type McpExtensionOptions } from "../src/index.js";
import { fixtureServer, makeTempDir } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const textOf = (message: ToolResultMessage | undefined) =>
	(message?.content ?? []).map((block) => (block.type === "text" ? block.text : "")).join("");

async function run(turns: Parameters<typeof createFauxModel>[0], options: McpExtensionOptions = {}) {
	const temp = makeTempDir();
	cleanups.push(() => temp.remove());
	const mcp = createMcpExtension(
		{ mcpServers: { big: { ...fixtureServer("big-server"), exposure: "direct", timeoutMs: 60_000 } } },
		{ outputDir: temp.path, ...options },
	);
	cleanups.push(() => mcp.close());
	const session = await createAgentSession({
		cwd: temp.path,
		model: createFauxModel(turns),
		noTools: "builtin",
		extensions: [mcp],
	});
	cleanups.push(() => session.dispose());
	const [summary] = await mcp.settled();
	expect(summary?.status.state).toBe("ready");
	return { session, mcp, folder: temp.path };
}

const results = (messages: readonly { role: string }[]) =>
	messages.filter((message): message is ToolResultMessage => message.role === "toolResult");

describe("what MCP servers send is bounded", () => {
	test("a 40 MB result is cut to 25 000 tokens with a notice naming the file holding all of it; the connection stays usable", async () => {
		const { session, mcp } = await run([
			{ toolCalls: [{ name: "mcp__big__big", arguments: { megabytes: 40 } }] },
			{ toolCalls: [{ name: "mcp__big__small", arguments: {} }] },
			{ text: "done" },
		]);
		const started = Date.now();
		await session.prompt("call big, then small");
		const seconds = (Date.now() - started) / 1000;
		const [big, small] = results(session.messages);
		const text = textOf(big);
		expect(big?.isError).toBe(false);
		expect(text.startsWith("START\n0123")).toBe(true);
		expect(text.length).toBeLessThanOrEqual(100_000);
		const notice =
			/returned about (\d+) tokens, over the 25000-token limit \(MAX_MCP_OUTPUT_TOKENS\).*The whole result is in (\S+) /.exec(
				text,
			);
		expect(notice?.[1] && Number(notice[1])).toBeGreaterThan(10_000_000);
		const kept = readFileSync(notice?.[2] ?? "", "utf8");
		expect(kept.length).toBeGreaterThan(40 * 1024 * 1024);
		expect(kept.startsWith("START\n")).toBe(true);
		expect(kept.endsWith("END")).toBe(true);
		expect(small?.isError).toBe(false);
		expect(textOf(small)).toBe("small answer");
		expect(mcp.servers()[0]?.status.state).toBe("ready");
		console.log(`40 MB result and a second call: ${seconds.toFixed(2)} s`);
	}, 60_000);

	test("the bound comes from maxOutputTokens, else MAX_MCP_OUTPUT_TOKENS; a small result is untouched", async () => {
		const { session } = await run(
			[
				{ toolCalls: [{ name: "mcp__big__big", arguments: { megabytes: 0.01 } }] },
				{ toolCalls: [{ name: "mcp__big__small", arguments: {} }] },
				{ text: "done" },
			],
			{ maxOutputTokens: 1000 },
		);
		await session.prompt("go");
		const [big, small] = results(session.messages);
		expect(textOf(big).length).toBeLessThanOrEqual(4000);
		expect(textOf(big)).toContain("over the 1000-token limit");
		expect(small?.content).toEqual([{ type: "text", text: "small answer" }]);
		expect(maxOutputTokens(undefined, {})).toBe(25_000);
		expect(maxOutputTokens(undefined, { MAX_MCP_OUTPUT_TOKENS: "50000" })).toBe(50_000);
		expect(maxOutputTokens(7, { MAX_MCP_OUTPUT_TOKENS: "50000" })).toBe(7);
		expect(() => maxOutputTokens(undefined, { MAX_MCP_OUTPUT_TOKENS: "lots" })).toThrow(
			'MAX_MCP_OUTPUT_TOKENS must be a positive number of tokens (got "lots")',
		);
	});

	test("a description over 2 000 characters is cut with an ellipsis", async () => {
		const { session } = await run([{ text: "done" }]);
		const described = session.getAllTools().find((tool) => tool.name === "mcp__big__described");
		const description = described?.description ?? "";
		expect(description).toHaveLength(2000);
		expect(description.endsWith("…")).toBe(true);
		expect(description).not.toContain("END");
	});
});
