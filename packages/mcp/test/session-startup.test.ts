import { join } from "node:path";
import type { ToolResultMessage } from "@gantry/ai";
import { createFauxModel } from "@gantry/ai";
import { type AgentSession, classifyTool, createAgentSession } from "@gantry/coding-agent";
import { afterEach, describe, expect, test } from "vitest";
import { createMcpExtension, type McpExtension, type McpServerSettings } from "../src/index.js";
import { fixtureServer, makeTempDir } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The slow-start fixture: a real stdio server (the SDK's McpServer) that sleeps `delayMs` before connecting. */
function slowServer(delayMs: number, extra: Partial<McpServerSettings> = {}): McpServerSettings {
	const settings = fixtureServer("slow-start", extra) as McpServerSettings & { args: string[] };
	settings.args.push(String(delayMs));
	return settings;
}

async function sessionWith(
	settings: McpServerSettings,
	turns: Parameters<typeof createFauxModel>[0],
	options: { folder?: string; sessionFile?: string } = {},
): Promise<{ session: AgentSession; mcp: McpExtension; model: ReturnType<typeof createFauxModel> }> {
	let folder = options.folder;
	if (folder === undefined) {
		const temp = makeTempDir();
		cleanups.push(() => temp.remove());
		folder = temp.path;
	}
	const mcp = createMcpExtension({ mcpServers: { slow: settings } });
	cleanups.push(() => mcp.close());
	const model = createFauxModel(turns);
	const session = await createAgentSession({
		cwd: folder,
		model,
		noTools: "builtin",
		tools: ["tool_search", "mcp__*"],
		extensions: [mcp],
		...(options.sessionFile === undefined ? {} : { sessionFile: options.sessionFile }),
	});
	cleanups.push(() => session.dispose());
	return { session, mcp, model };
}

function toolResults(session: AgentSession): ToolResultMessage[] {
	return session.messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
}

describe("a prompt sent right after the session starts, without settled()", () => {
	test("tool_search finds the tools of a server that is still connecting, and the call runs", async () => {
		const { session, mcp, model } = await sessionWith(slowServer(1200), [
			{ toolCalls: [{ name: "tool_search", arguments: { query: "mcp__slow__ping" } }] },
			(context) => {
				expect(context.tools?.map((tool) => tool.name)).toContain("mcp__slow__ping");
				return { toolCalls: [{ name: "mcp__slow__ping", arguments: {} }] };
			},
			{ text: "done" },
		]);
		expect(mcp.servers()[0]?.status.state).toBe("connecting");
		await session.prompt("ping the slow server");
		expect(model.calls).toHaveLength(3);
		const [, ping] = toolResults(session);
		expect(ping).toMatchObject({ toolName: "mcp__slow__ping", isError: false });
		expect(ping?.content).toEqual([{ type: "text", text: "pong" }]);
	});

	test("a direct tool of a connecting server is declared in the very first model request", async () => {
		const { session, model } = await sessionWith(slowServer(1000, { exposure: "direct" }), [
			(context) => {
				expect(context.tools?.map((tool) => tool.name)).toEqual(
					expect.arrayContaining(["mcp__slow__ping", "mcp__slow__look"]),
				);
				return { toolCalls: [{ name: "mcp__slow__look", arguments: {} }] };
			},
			{ text: "done" },
		]);
		await session.prompt("look");
		expect(model.calls).toHaveLength(2);
		expect(toolResults(session)[0]).toMatchObject({ isError: false, content: [{ type: "text", text: "looked" }] });
	});

	test("a resumed conversation's call to a loaded MCP tool waits for the server instead of 'not found'", async () => {
		const temp = makeTempDir();
		cleanups.push(() => temp.remove());
		const sessionFile = join(temp.path, "session.jsonl");
		const first = await sessionWith(
			slowServer(0),
			[
				{ toolCalls: [{ name: "tool_search", arguments: { query: "mcp__slow__ping" } }] },
				{ toolCalls: [{ name: "mcp__slow__ping", arguments: {} }] },
				{ text: "done" },
			],
			{ folder: temp.path, sessionFile },
		);
		await first.session.prompt("load ping");
		expect(toolResults(first.session)[1]?.isError).toBe(false);
		await first.session.dispose();

		const second = await sessionWith(
			slowServer(1200),
			[{ toolCalls: [{ name: "mcp__slow__ping", arguments: {} }] }, { text: "again" }],
			{ folder: temp.path, sessionFile },
		);
		expect(second.mcp.servers()[0]?.status.state).toBe("connecting");
		await second.session.prompt("ping again");
		const last = toolResults(second.session).at(-1);
		expect(last).toMatchObject({
			toolName: "mcp__slow__ping",
			isError: false,
			content: [{ type: "text", text: "pong" }],
		});
	});

	test("the wait is bounded by the server's startTimeoutMs, counted from its start", async () => {
		// The bound counts from the server's start, when the session takes the extension.
		const started = Date.now();
		const { session, mcp, model } = await sessionWith(slowServer(12_000, { startTimeoutMs: 3000 }), [
			(context) => {
				expect(context.tools?.map((tool) => tool.name) ?? []).not.toContain("mcp__slow__ping");
				return { text: "no server yet" };
			},
			{ text: "still none" },
		]);
		await session.prompt("hello");
		const firstWait = Date.now() - started;
		expect(firstWait).toBeGreaterThanOrEqual(2900);
		expect(firstWait).toBeLessThan(9000);
		const again = Date.now();
		await session.prompt("hello again");
		// Past the bound, counted from the server's start: the next request does not wait again (which would take
		// the whole 3 s bound once more).
		expect(Date.now() - again).toBeLessThan(1500);
		expect(model.calls).toHaveLength(2);
		expect(mcp.servers()[0]?.status.state).toBe("connecting");
	});

	test("aborting the run ends the wait", async () => {
		const { session } = await sessionWith(slowServer(8000), [{ text: "never asked" }]);
		const started = Date.now();
		const prompt = session.prompt("hello");
		setTimeout(() => session.abort(), 300);
		await prompt;
		expect(Date.now() - started).toBeLessThan(3000);
	});
});

describe("annotations as the server sent them", () => {
	test("destructiveHint: false and the rest arrive unchanged, marked as unvetted hints", async () => {
		const { session, mcp } = await sessionWith(slowServer(0), []);
		await mcp.settled();
		const annotations = (name: string) => session.getAllTools().find((tool) => tool.name === name)?.annotations;
		expect(annotations("mcp__slow__ping")).toEqual({
			destructiveHint: false,
			openWorldHint: false,
			idempotentHint: true,
			hintTrust: "readOnlyHint",
		});
		expect(annotations("mcp__slow__look")).toEqual({
			readOnlyHint: true,
			openWorldHint: false,
			hintTrust: "readOnlyHint",
		});
		expect(annotations("mcp__slow__plain")).toEqual({ hintTrust: "readOnlyHint" });
		// Carried over, but not believed: only readOnlyHint lets an unvetted tool run without asking.
		expect(classifyTool(annotations("mcp__slow__ping"))).toBe("needs-approval");
		expect(classifyTool(annotations("mcp__slow__look"))).toBe("read-only");
	});

	test("the user's readOnly setting replaces the server's readOnlyHint, and nothing else", async () => {
		const { session, mcp } = await sessionWith(
			slowServer(0, { tools: { ping: { readOnly: true }, look: { readOnly: false } } }),
			[],
		);
		await mcp.settled();
		const annotations = (name: string) => session.getAllTools().find((tool) => tool.name === name)?.annotations;
		expect(annotations("mcp__slow__ping")).toMatchObject({ readOnlyHint: true, destructiveHint: false });
		expect(classifyTool(annotations("mcp__slow__ping"))).toBe("read-only");
		expect(annotations("mcp__slow__look")).toMatchObject({ readOnlyHint: false, openWorldHint: false });
		expect(classifyTool(annotations("mcp__slow__look"))).toBe("needs-approval");
	});
});
