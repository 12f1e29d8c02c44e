import type { ToolResultMessage } from "@gantry/ai";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { afterEach, describe, expect, test } from "vitest";
import { createMcpExtension, type McpServerSettings, type McpServerStatus } from "../src/index.js";
import { fixtureServer, isRunning, makeTempDir } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function run(settings: McpServerSettings, turns: Parameters<typeof createFauxModel>[0]) {
	const temp = makeTempDir();
	cleanups.push(() => temp.remove());
	const statuses: McpServerStatus[] = [];
	const mcp = createMcpExtension(
		{ mcpServers: { bad: settings } },
		{ onStatus: (_server, status) => statuses.push(status) },
	);
	cleanups.push(() => mcp.close());
	const session = await createAgentSession({
		cwd: temp.path,
		model: createFauxModel(turns),
		noTools: "builtin",
		extensions: [mcp],
	});
	cleanups.push(() => session.dispose());
	await mcp.settled();
	return { session, mcp, statuses };
}

const results = (messages: readonly { role: string }[]) =>
	messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
const textOf = (result: ToolResultMessage | undefined) =>
	result?.content.map((block) => (block.type === "text" ? block.text : "")).join("") ?? "";

describe("servers that misbehave", () => {
	test("a command that does not exist: failed status naming it; the session goes on", async () => {
		const { session, mcp } = await run({ command: "gantry-no-such-mcp-server" }, [{ text: "fine" }]);
		const [server] = mcp.servers();
		expect(server?.status.state).toBe("failed");
		expect(server?.status.state === "failed" && server.status.error).toMatch(
			/gantry-no-such-mcp-server.*ENOENT|ENOENT/,
		);
		expect(server?.tools).toEqual([]);
		await session.prompt("hello");
		expect(session.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
	});

	test("a server that exits mid-call: a clear error result, the stderr tail in its status, its tools withdrawn", async () => {
		const { session, mcp } = await run(rawServer("exit"), [
			{ toolCalls: [{ name: "mcp__bad__work", arguments: {} }] },
			{ toolCalls: [{ name: "mcp__bad__work", arguments: {} }] },
			{ text: "done" },
		]);
		await session.prompt("work");
		const [first, again] = results(session.messages);
		expect(first?.isError).toBe(true);
		expect(textOf(first)).toContain('MCP server "bad" closed the connection during the call to "work"');
		expect(again?.isError).toBe(true);
		expect(mcp.servers()[0]).toMatchObject({
			status: { state: "failed", stderr: expect.stringContaining("the work exploded") },
			tools: [],
		});
		expect(session.getAllTools().map((tool) => tool.name)).not.toContain("mcp__bad__work");
		expect(textOf(again)).toContain('Tool mcp__bad__work is no longer available: the MCP server "bad" failed');
	});

	test("a server that answers with malformed JSON: the call times out and says what the server sent", async () => {
		const { session } = await run(rawServer("malformed", 800), [
			{ toolCalls: [{ name: "mcp__bad__work", arguments: {} }] },
			{ text: "done" },
		]);
		await session.prompt("work");
		const [result] = results(session.messages);
		expect(result?.isError).toBe(true);
		expect(textOf(result)).toContain('MCP server "bad" did not answer the call to "work" within 0.8 s');
		expect(textOf(result)).toContain("Its last unreadable output");
	});

	test("a server that never answers: the call times out with a hint about timeoutMs", async () => {
		const { session, mcp } = await run(rawServer("silent", 500), [
			{ toolCalls: [{ name: "mcp__bad__work", arguments: {} }] },
			{ text: "done" },
		]);
		await session.prompt("work");
		const [result] = results(session.messages);
		expect(result?.isError).toBe(true);
		expect(textOf(result)).toContain('within 0.5 s (raise "timeoutMs" in its settings');
		expect(mcp.servers()[0]?.status.state).toBe("ready");
	});

	test("list_changed removing an active tool: calls to it get a clear error, the other tools keep their order", async () => {
		const { session } = await run(fixtureServer("list-changed", { exposure: "direct" }), [
			{ toolCalls: [{ name: "mcp__bad__drop", arguments: {} }] },
			{ toolCalls: [{ name: "mcp__bad__doomed", arguments: {} }] },
			{ toolCalls: [{ name: "mcp__bad__last", arguments: {} }] },
			{ text: "done" },
		]);
		const before = session.getActiveToolNames();
		expect(before).toEqual(["mcp__bad__first", "mcp__bad__doomed", "mcp__bad__drop", "mcp__bad__last"]);
		await session.prompt("change");
		const [drop, doomed, last] = results(session.messages);
		expect(textOf(drop)).toBe("dropped");
		expect(doomed?.isError).toBe(true);
		// Whether list_changed or the call reaches its side first, the answer names the withdrawn tool.
		expect(textOf(doomed)).toContain("doomed");
		expect(textOf(last)).toBe("last");
		expect(session.getActiveToolNames()).toEqual(["mcp__bad__first", "mcp__bad__drop", "mcp__bad__last"]);
		expect(session.getAllTools().map((tool) => tool.name)).not.toContain("mcp__bad__doomed");
	});

	test("close leaves no server process behind", async () => {
		const { mcp } = await run(fixtureServer("list-changed"), []);
		const connection = mcp.servers()[0];
		expect(connection?.status.state).toBe("ready");
		const pid = mcp.pids()[0];
		expect(pid !== undefined && isRunning(pid)).toBe(true);
		await mcp.close();
		expect(pid !== undefined && isRunning(pid)).toBe(false);
	});
});

function rawServer(mode: string, timeoutMs?: number): McpServerSettings {
	const settings = fixtureServer("raw-server", { exposure: "direct" }) as McpServerSettings & { args: string[] };
	settings.args.push(mode);
	if (timeoutMs !== undefined) settings.timeoutMs = timeoutMs;
	return settings;
}
