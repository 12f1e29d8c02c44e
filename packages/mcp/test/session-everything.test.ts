import type { ToolResultMessage } from "@gantry/ai";
import { createFauxModel } from "@gantry/ai";
import { type AgentSession, createAgentSession } from "@gantry/coding-agent";
import { afterEach, describe, expect, test } from "vitest";
import { createMcpExtension, type McpExtension, type McpServerSettings } from "../src/index.js";
import { everythingStdio, makeTempDir } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function sessionWith(
	settings: McpServerSettings,
	turns: Parameters<typeof createFauxModel>[0],
	tools = ["tool_search", "codemode", "mcp__*"],
): Promise<{ session: AgentSession; mcp: McpExtension; model: ReturnType<typeof createFauxModel> }> {
	const temp = makeTempDir();
	cleanups.push(() => temp.remove());
	const mcp = createMcpExtension({ mcpServers: { everything: settings } });
	cleanups.push(() => mcp.close());
	const model = createFauxModel(turns);
	const session = await createAgentSession({ cwd: temp.path, model, noTools: "builtin", tools, extensions: [mcp] });
	cleanups.push(() => session.dispose());
	return { session, mcp, model };
}

function toolResults(session: AgentSession): ToolResultMessage[] {
	return session.messages.filter((message): message is ToolResultMessage => message.role === "toolResult");
}

describe("server-everything over stdio, through an agent session", () => {
	test("the session starts before the server is ready; its tools arrive deferred and namespaced", async () => {
		const { session, mcp } = await sessionWith(everythingStdio(), []);
		expect(mcp.servers()[0]?.status.state).toBe("connecting");
		const [summary] = await mcp.settled();
		expect(summary?.status.state).toBe("ready");
		const echo = session.getAllTools().find((tool) => tool.name === "mcp__everything__echo");
		expect(echo).toMatchObject({ exposure: "deferred", namespace: { name: "everything" }, label: "Echo Tool" });
		expect(echo?.annotations?.readOnlyHint).toBe(true);
		expect(session.getActiveToolNames()).not.toContain("mcp__everything__echo");
		expect(session.getCallableToolNames()).toContain("mcp__everything__get-sum");
	});

	test("tool_search finds and loads a deferred MCP tool, and the model then calls it", async () => {
		const { session, mcp, model } = await sessionWith(everythingStdio(), [
			{ toolCalls: [{ name: "tool_search", arguments: { query: "mcp__everything__echo" } }] },
			(context) => {
				expect(context.tools?.map((tool) => tool.name)).toContain("mcp__everything__echo");
				return { toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "through MCP" } }] };
			},
			{ text: "done" },
		]);
		await mcp.settled();
		await session.prompt("echo something");
		expect(model.calls).toHaveLength(3);
		const results = toolResults(session);
		expect(results[1]).toMatchObject({ toolName: "mcp__everything__echo", isError: false });
		expect(results[1]?.content).toEqual([{ type: "text", text: "Echo: through MCP" }]);
	});

	test("results map: sums, images, structured content, resource links", async () => {
		const { session, mcp } = await sessionWith(everythingStdio({ exposure: "direct" }), [
			{
				toolCalls: [
					{ name: "mcp__everything__get-sum", arguments: { a: 1, b: 2 } },
					{ name: "mcp__everything__get-tiny-image", arguments: {} },
					{ name: "mcp__everything__get-structured-content", arguments: { location: "Chicago" } },
					{ name: "mcp__everything__get-resource-links", arguments: { count: 2 } },
				],
			},
			{ text: "done" },
		]);
		await mcp.settled();
		await session.prompt("use them");
		const [sum, image, structured, links] = toolResults(session);
		expect(JSON.stringify(sum?.content)).toContain("3");
		expect(image?.content.some((block) => block.type === "image" && block.mimeType === "image/png")).toBe(true);
		expect(structured?.isError).toBe(false);
		const first = structured?.content[0];
		expect(first?.type === "text" && JSON.parse(first.text)).toMatchObject({ temperature: expect.any(Number) });
		expect(links?.content.some((block) => block.type === "text" && block.text.startsWith("Resource link: "))).toBe(
			true,
		);
	});

	test("codemode calls an MCP tool and gets its structuredContent", async () => {
		const code =
			'const weather = await tools["mcp__everything__get-structured-content"]({ location: "New York" }); return weather.conditions;';
		const { session, mcp } = await sessionWith(everythingStdio({ exposure: "codemode" }), [
			{ toolCalls: [{ name: "codemode", arguments: { code } }] },
			{ text: "done" },
		]);
		await mcp.settled();
		await session.prompt("script it");
		const [result] = toolResults(session);
		expect(result?.isError).toBe(false);
		expect(result?.nestedCalls?.calls.map((call) => call.name)).toEqual(["mcp__everything__get-structured-content"]);
		expect(JSON.stringify(result?.content)).not.toContain("undefined");
	});

	test("progress becomes tool updates; abort cancels the call", async () => {
		const { session, mcp } = await sessionWith(everythingStdio({ exposure: "direct" }), [
			{
				toolCalls: [
					{ name: "mcp__everything__trigger-long-running-operation", arguments: { duration: 0.4, steps: 4 } },
				],
			},
			{
				toolCalls: [
					{ name: "mcp__everything__trigger-long-running-operation", arguments: { duration: 30, steps: 30 } },
				],
			},
			{ text: "never" },
		]);
		await mcp.settled();
		const updates: string[] = [];
		session.subscribe((event) => {
			if (event.type === "tool_execution_update") updates.push(JSON.stringify(event.partialResult.content));
			if (event.type === "tool_execution_update" && toolResults(session).length === 1) session.abort();
		});
		await session.prompt("run long");
		expect(updates[0]).toContain("progress 1/4");
		const results = toolResults(session);
		expect(results[0]?.content[0]).toMatchObject({ text: expect.stringContaining("completed") });
		expect(results[1]?.isError).toBe(true);
		// The server is still usable after the cancelled call.
		const connection = await mcp.settled();
		expect(connection[0]?.status.state).toBe("ready");
	});
});
