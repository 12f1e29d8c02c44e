import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { describe, expect, test } from "vitest";
import { createMcpExtension } from "../src/index.js";
import { everythingStdio, isRunning, makeTempDir } from "./helpers.js";

async function waitUntilGone(pid: number): Promise<boolean> {
	for (let attempt = 0; attempt < 50 && isRunning(pid); attempt++) await new Promise((done) => setTimeout(done, 100));
	return !isRunning(pid);
}

describe("a session's end closes its MCP servers", () => {
	test("disposing the last session that uses the extension ends the server process", async () => {
		const temp = makeTempDir();
		const mcp = createMcpExtension({ mcpServers: { everything: everythingStdio() } });
		try {
			const model = createFauxModel([]);
			const first = await createAgentSession({ cwd: temp.path, model, noTools: "builtin", extensions: [mcp] });
			const second = await createAgentSession({ cwd: temp.path, model, noTools: "builtin", extensions: [mcp] });
			await mcp.settled();
			const [pid] = mcp.pids();
			if (pid === undefined) throw new Error("the MCP server started no process");
			expect(pid).toBeGreaterThan(0);

			await first.dispose();
			expect(isRunning(pid)).toBe(true);
			expect(mcp.servers()[0]?.status.state).toBe("ready");

			await second.dispose();
			expect(await waitUntilGone(pid)).toBe(true);
			expect(mcp.servers()[0]?.status.state).toBe("closed");
		} finally {
			await mcp.close();
			temp.remove();
		}
	});
});
