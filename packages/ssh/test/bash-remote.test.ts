import { stat } from "node:fs/promises";
import type { AgentToolResult } from "@gantry/agent";
import type { ExtensionToolContext } from "@gantry/extensions";
import { createBashToolDefinition } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import type { SshWorkspace } from "../src/index.js";
import type { TestSshServer } from "../src/testing/index.js";
import { processesWith, uniqueSleep } from "./helpers/processes.js";
import { useRemoteWorkspace } from "./helpers/workspace.js";

let server: TestSshServer;
let workspace: SshWorkspace;
const noContext = undefined as unknown as ExtensionToolContext;

useRemoteWorkspace((fixture) => {
	({ server, workspace } = fixture);
});

function bash(command: string, options: { timeout?: number; signal?: AbortSignal } = {}) {
	const tool = createBashToolDefinition(workspace);
	return tool.execute(
		"remote-bash",
		options.timeout === undefined ? { command } : { command, timeout: options.timeout },
		options.signal,
		undefined,
		noContext,
	) as Promise<AgentToolResult<{ fullOutputPath?: string; truncated?: boolean }>>;
}

function text(result: AgentToolResult<unknown>): string {
	return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("bash over SSH", () => {
	it("a timeout of `sleep 30.<unique>` leaves no process on the host", async () => {
		const marker = uniqueSleep();
		await expect(bash(`sleep ${marker} & sleep ${marker}`, { timeout: 1 })).rejects.toThrow(/timed out after 1 second/);
		expect(await processesWith(marker)).toEqual([]);
	});

	it("an abort of `sleep 30.<unique>` leaves no process on the host", async () => {
		const marker = uniqueSleep();
		const controller = new AbortController();
		const running = bash(`sleep ${marker}`, { signal: controller.signal }).catch((error: Error) => error);
		for (let tries = 0; tries < 250 && (await processesWith(marker)).length === 0; tries++) {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		expect((await processesWith(marker)).length).toBeGreaterThan(0);
		controller.abort();
		expect(await running).toMatchObject({ message: expect.stringContaining("aborted") });
		expect(await processesWith(marker)).toEqual([]);
	});

	it("a 20 MB flood returns at most 50 KiB and keeps the whole output in a file on the host", async () => {
		const result = await bash("head -c 20000000 /dev/zero | tr '\\0' 'a' | fold -w 100");
		// The kept output, then one notice line naming the file with the rest.
		const [output, notice] = text(result).split("\n\n[Showing last ");
		if (output === undefined) throw new Error("the result has no text");
		expect(Buffer.byteLength(output)).toBeLessThanOrEqual(50 * 1024);
		expect(notice).toMatch(/^\d+ lines of 200000 \(50\.0 KB limit\)\. Full output: /);
		const path = result.details?.fullOutputPath as string;
		expect(path.startsWith(`${workspace.tempDir}/`)).toBe(true);
		expect(text(result)).toContain(path);
		const saved = await stat(path);
		// 20,000,000 characters in 200,000 lines of 100, a newline between each two.
		expect(saved.size).toBe(20_199_999);
		expect(saved.uid).toBe(server.uid);
	});
});
