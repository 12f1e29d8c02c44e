import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { plainTheme } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { attachMcpServers, loadMcpServers } from "../../src/mcp-servers.js";
import { runSlashCommand } from "../../src/tui/slash-commands.js";

const ADDER = fileURLToPath(new URL("../fixtures/mcp-adder.mjs", import.meta.url));

let dir: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gantry-mcp-command-"));
});
afterEach(() => {
	rmSync(dir, { recursive: true, force: true });
});

async function runMcp(servers: Record<string, unknown>): Promise<string[]> {
	writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
	const mcp = await loadMcpServers(dir, { home: dir });
	const session = await createAgentSession({
		cwd: dir,
		model: createFauxModel([]),
		extensions: mcp === undefined ? [] : [mcp],
	});
	if (mcp !== undefined) attachMcpServers(session, mcp);
	try {
		await mcp?.settled(15_000);
		const printed: string[] = [];
		expect(runSlashCommand("/mcp", { session, theme: plainTheme, print: (lines) => printed.push(...lines) })).toBe(
			"continue",
		);
		return printed;
	} finally {
		await session.dispose();
	}
}

describe("/mcp", () => {
	it("shows each server's status and its tools' exposure and state", async () => {
		const printed = (
			await runMcp({
				adder: { command: process.execPath, args: [ADDER] },
				broken: { command: join(dir, "no-such-server") },
			})
		).join("\n");
		expect(printed).toMatch(/adder \(stdio\): ready/);
		expect(printed).toMatch(/mcp__adder__add\s+deferred\s+no\s+yes/);
		expect(printed).toContain("mcp__adder__refuse");
		expect(printed).toMatch(/broken \(stdio\): failed/);
	});

	it("says where servers are configured when there are none", async () => {
		writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: {} }));
		const session = await createAgentSession({ cwd: dir, model: createFauxModel([]) });
		const printed: string[] = [];
		runSlashCommand("/mcp", { session, theme: plainTheme, print: (lines) => printed.push(...lines) });
		await session.dispose();
		expect(printed.join("\n")).toContain("No MCP servers are configured");
	});
});
