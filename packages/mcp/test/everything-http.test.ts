import { afterEach, describe, expect, test } from "vitest";
import { McpServerConnection } from "../src/index.js";
import { EVERYTHING_BIN, freePort, startProcess } from "./helpers.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
	for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(transport: "streamableHttp" | "sse"): Promise<number> {
	const port = await freePort();
	const server = await startProcess([EVERYTHING_BIN, transport], { PORT: String(port) }, String(port));
	cleanups.push(() => server.stop());
	return port;
}

function connect(url: string) {
	const connection = new McpServerConnection("everything", { type: "http", url }, { cwd: process.cwd() });
	cleanups.push(() => connection.close());
	void connection.start();
	return connection;
}

describe("server-everything over HTTP", () => {
	test("Streamable HTTP: tools, a call with progress, structured content", async () => {
		const port = await serve("streamableHttp");
		const connection = connect(`http://127.0.0.1:${port}/mcp`);
		expect((await connection.settled()).state).toBe("ready");
		expect(connection.tools.map((tool) => tool.name)).toContain("get-structured-content");
		const echo = await connection.callTool("echo", { message: "over http" });
		expect(echo.content).toEqual([{ type: "text", text: "Echo: over http" }]);
		const progress: number[] = [];
		await connection.callTool(
			"trigger-long-running-operation",
			{ duration: 0.3, steps: 3 },
			{ onProgress: (update) => progress.push(update.progress) },
		);
		expect(progress.slice(0, 2)).toEqual([1, 2]);
		const weather = await connection.callTool("get-structured-content", { location: "Los Angeles" });
		expect(weather.structuredContent).toMatchObject({ temperature: expect.any(Number) });
	});

	test("an older HTTP+SSE server is reached through the fallback", async () => {
		const port = await serve("sse");
		const connection = connect(`http://127.0.0.1:${port}/sse`);
		const status = await connection.settled();
		expect(status.state).toBe("ready");
		const echo = await connection.callTool("echo", { message: "over sse" });
		expect(echo.content).toEqual([{ type: "text", text: "Echo: over sse" }]);
	});

	test("nothing listening: failed, naming the problem", async () => {
		const port = await freePort();
		const connection = connect(`http://127.0.0.1:${port}/mcp`);
		const status = await connection.settled();
		expect(status.state).toBe("failed");
		expect(status.state === "failed" && status.error).toMatch(/could not connect/);
	});
});
