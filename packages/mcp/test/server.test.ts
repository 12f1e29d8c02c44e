import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession, createPermissionPolicy } from "@gantry/coding-agent";
import { defineTool } from "@gantry/extensions";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Type } from "@sinclair/typebox";
import { afterEach, describe, expect, test } from "vitest";
import { createMcpServer } from "../src/index.js";
import { makeTempDir } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function servedSession(mode: "ask" | "yes") {
	const temp = makeTempDir();
	cleanups.push(() => temp.remove());
	const session = await createAgentSession({
		cwd: temp.path,
		model: createFauxModel([]),
		extensions: [createPermissionPolicy({ mode })],
	});
	cleanups.push(() => session.dispose());
	const server = createMcpServer({ tools: session });
	cleanups.push(() => server.close());
	const listener = await server.listenHttp();
	const client = new Client({ name: "test-client", version: "1.0.0" });
	await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
	cleanups.push(() => client.close());
	return { client, folder: temp.path, url: listener.url };
}

const textOf = (result: object) =>
	(((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
		.map((block) => block.text ?? "")
		.join("");

describe("createMcpServer over Streamable HTTP, serving a session", () => {
	test("lists the session's callable tools with annotations and output schemas", async () => {
		const { client, url } = await servedSession("ask");
		expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
		const { tools } = await client.listTools();
		const read = tools.find((tool) => tool.name === "read");
		expect(read?.annotations).toMatchObject({ readOnlyHint: true });
		expect(read?.outputSchema?.type).toBe("object");
		expect(tools.find((tool) => tool.name === "bash")?.annotations).toMatchObject({ destructiveHint: true });
		expect(tools.map((tool) => tool.name)).not.toContain("codemode");
	});

	test("read runs and returns structuredContent; write without --yes is an error result saying so", async () => {
		const { client, folder } = await servedSession("ask");
		writeFileSync(join(folder, "a.txt"), "alpha\n");
		const read = await client.callTool({ name: "read", arguments: { path: "a.txt" } });
		expect(read.isError).toBeFalsy();
		expect(textOf(read)).toContain("alpha");
		expect(read.structuredContent).toMatchObject({ kind: "text", content: expect.stringContaining("alpha") });
		const write = await client.callTool({ name: "write", arguments: { path: "b.txt", content: "beta" } });
		expect(write.isError).toBe(true);
		expect(textOf(write)).toContain("there is no one to approve it. Re-run with --yes");
		expect(write._meta).toEqual({ "gantry/blocked": true });
		expect(read._meta).toBeUndefined();
		expect(existsSync(join(folder, "b.txt"))).toBe(false);
		const unknown = await client.callTool({ name: "nope", arguments: {} });
		expect(unknown.isError).toBe(true);
		expect(textOf(unknown)).toContain('Unknown tool "nope"');
	});

	test("bash output arrives as progress when the client sends a token; cancellation stops the command", async () => {
		const { client, folder } = await servedSession("yes");
		const messages: string[] = [];
		const done = await client.callTool(
			{ name: "bash", arguments: { command: "echo one; sleep 0.3; echo two" } },
			undefined,
			{
				onprogress: (progress) => messages.push(progress.message ?? ""),
			},
		);
		expect(textOf(done)).toContain("two");
		expect(messages.some((message) => message.includes("one"))).toBe(true);

		const controller = new AbortController();
		const marker = join(folder, "finished");
		const pending = client.callTool(
			{ name: "bash", arguments: { command: `echo started; sleep 1.5; touch ${marker}` } },
			undefined,
			{ signal: controller.signal, onprogress: () => controller.abort() },
		);
		await expect(pending).rejects.toThrow();
		await new Promise((resolve) => setTimeout(resolve, 2000));
		expect(existsSync(marker)).toBe(false);
	});
});

describe("createMcpServer over plain definitions", () => {
	test("serves ToolDefinitions over any SDK transport, validating arguments", async () => {
		const greet = defineTool({
			name: "greet",
			label: "Greet",
			description: "Greets someone.",
			parameters: Type.Object({ name: Type.String() }),
			outputSchema: Type.Object({ greeting: Type.String() }),
			annotations: { readOnlyHint: true },
			async execute(_id, params) {
				return {
					content: [{ type: "text", text: `Hello, ${params.name}` }],
					structuredContent: { greeting: params.name },
				};
			},
		});
		const server = createMcpServer({ tools: [greet], name: "greeter", version: "2.0.0" });
		cleanups.push(() => server.close());
		const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
		await server.connect(serverSide);
		const client = new Client({ name: "test-client", version: "1.0.0" });
		await client.connect(clientSide);
		cleanups.push(() => client.close());
		expect(client.getServerVersion()).toMatchObject({ name: "greeter", version: "2.0.0" });
		const ok = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
		expect(ok).toMatchObject({
			content: [{ type: "text", text: "Hello, Ada" }],
			structuredContent: { greeting: "Ada" },
		});
		const bad = await client.callTool({ name: "greet", arguments: {} });
		expect(bad.isError).toBe(true);
		expect(textOf(bad)).toContain("name");
	});
});
