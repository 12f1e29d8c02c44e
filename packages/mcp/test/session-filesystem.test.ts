import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolResultMessage } from "@gantry/ai";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession, createPermissionPolicy } from "@gantry/coding-agent";
import type { Extension } from "@gantry/extensions";
import { afterEach, describe, expect, test } from "vitest";
import { createMcpExtension } from "../src/index.js";
import { FILESYSTEM_BIN, makeTempDir } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function run(turns: Parameters<typeof createFauxModel>[0], extensions: Extension[] = []) {
	const temp = makeTempDir();
	cleanups.push(() => temp.remove());
	const mcp = createMcpExtension({
		mcpServers: { files: { command: process.execPath, args: [FILESYSTEM_BIN, temp.path], exposure: "direct" } },
	});
	cleanups.push(() => mcp.close());
	const session = await createAgentSession({
		cwd: temp.path,
		model: createFauxModel(turns),
		noTools: "builtin",
		extensions: [mcp, ...extensions],
	});
	cleanups.push(() => session.dispose());
	const [summary] = await mcp.settled();
	expect(summary?.status.state).toBe("ready");
	return { session, folder: temp.path };
}

const results = (messages: readonly { role: string }[]) =>
	messages.filter((message): message is ToolResultMessage => message.role === "toolResult");

describe("server-filesystem over stdio, through an agent session", () => {
	test("reads and writes real files in the allowed folder", async () => {
		let folder = "";
		const { session, folder: allowed } = await run([
			() => ({
				toolCalls: [
					{
						name: "mcp__files__write_file",
						arguments: { path: join(folder, "note.txt"), content: "written over MCP" },
					},
				],
			}),
			() => ({ toolCalls: [{ name: "mcp__files__read_text_file", arguments: { path: join(folder, "seed.txt") } }] }),
			{ text: "done" },
		]);
		folder = allowed;
		writeFileSync(join(folder, "seed.txt"), "seeded by the test\n");
		await session.prompt("write then read");
		const [write, read] = results(session.messages);
		expect(write?.isError).toBe(false);
		expect(readFileSync(join(folder, "note.txt"), "utf8")).toBe("written over MCP");
		expect(read?.content).toEqual([{ type: "text", text: "seeded by the test\n" }]);
	});

	test("a tool_call block on its write tool holds: nothing is written", async () => {
		let folder = "";
		const blocker: Extension = (api) => {
			api.on("tool_call", (event) =>
				event.toolName === "mcp__files__write_file" ? { block: true, reason: "writes are off" } : undefined,
			);
		};
		const { session, folder: allowed } = await run(
			[
				() => ({
					toolCalls: [{ name: "mcp__files__write_file", arguments: { path: join(folder, "no.txt"), content: "x" } }],
				}),
				{ text: "done" },
			],
			[blocker],
		);
		folder = allowed;
		await session.prompt("try to write");
		const [write] = results(session.messages);
		expect(write?.isError).toBe(true);
		expect(JSON.stringify(write?.content)).toContain("writes are off");
		expect(existsSync(join(folder, "no.txt"))).toBe(false);
	});

	test("the permission policy trusts only readOnlyHint: create_directory (destructive false, closed world) asks", async () => {
		let folder = "";
		const { session, folder: allowed } = await run(
			[
				() => ({ toolCalls: [{ name: "mcp__files__create_directory", arguments: { path: join(folder, "made") } }] }),
				() => ({ toolCalls: [{ name: "mcp__files__list_directory", arguments: { path: folder } }] }),
				{ text: "done" },
			],
			[createPermissionPolicy()],
		);
		folder = allowed;
		await session.prompt("make a folder");
		const [create, list] = results(session.messages);
		expect(create?.isError).toBe(true);
		expect(JSON.stringify(create?.content)).toContain("Blocked by the permission policy");
		expect(existsSync(join(folder, "made"))).toBe(false);
		expect(list?.isError).toBe(false);
	});
});
