import { afterEach, describe, expect, test } from "vitest";
import { McpServerConnection, type McpServerStatus } from "../src/index.js";
import { everythingStdio, isRunning } from "./helpers.js";

const open: McpServerConnection[] = [];
afterEach(async () => {
	await Promise.all(open.splice(0).map((connection) => connection.close()));
});

function connect(settings = everythingStdio()) {
	const statuses: McpServerStatus[] = [];
	const connection = new McpServerConnection("everything", settings, {
		cwd: process.cwd(),
		onStatus: (status) => statuses.push(status),
	});
	open.push(connection);
	return { connection, statuses };
}

describe("McpServerConnection against server-everything over stdio", () => {
	test("connects in the background, lists the tools and calls one", async () => {
		const { connection, statuses } = connect();
		expect(connection.status).toEqual({ state: "connecting" });
		void connection.start();
		const status = await connection.settled();
		expect(status.state).toBe("ready");
		expect(connection.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "get-sum"]));
		expect(statuses.at(-1)).toEqual({ state: "ready", toolCount: connection.tools.length });
		const result = await connection.callTool("get-sum", { a: 2, b: 40 });
		expect(result.content?.[0]).toMatchObject({ type: "text" });
		expect(JSON.stringify(result.content)).toContain("42");
	});

	test("a call to a server still connecting waits for it", async () => {
		const { connection } = connect();
		void connection.start();
		const result = await connection.callTool("echo", { message: "early" });
		expect(result.content).toEqual([{ type: "text", text: "Echo: early" }]);
	});

	test("progress notifications reach the caller", async () => {
		const { connection } = connect();
		void connection.start();
		const progress: number[] = [];
		const result = await connection.callTool(
			"trigger-long-running-operation",
			{ duration: 0.3, steps: 3 },
			{ onProgress: (update) => progress.push(update.progress) },
		);
		expect(progress.slice(0, 2)).toEqual([1, 2]);
		expect(JSON.stringify(result.content)).toContain("completed");
	});

	test("close ends the server process", async () => {
		const { connection, statuses } = connect();
		await connection.start();
		const pid = connection.pid;
		expect(pid).toBeTypeOf("number");
		expect(isRunning(pid ?? 0)).toBe(true);
		await connection.close();
		expect(connection.status).toEqual({ state: "closed" });
		expect(statuses[0]?.state).toBe("ready");
		expect(statuses.at(-1)?.state).toBe("closed");
		expect(isRunning(pid ?? 0)).toBe(false);
	});
});
