import type { ExtensionToolContext } from "@gantry/extensions";
import { afterEach, describe, expect, it } from "vitest";
import { createBashToolDefinition, createLocalWorkspace } from "../../src/index.js";
import { killAll, processesWith, uniqueSleep, waitForProcess } from "./processes.js";

const noContext = undefined as unknown as ExtensionToolContext;
const tokens: string[] = [];

afterEach(async () => {
	for (const token of tokens.splice(0)) await killAll(token);
});

function sleeper(): string {
	const token = uniqueSleep();
	tokens.push(token);
	return token;
}

/** Shell commands that leave `sleep <token>` outside the command's process group. */
const escapes = {
	"setsid sleep &": (token: string) => `setsid sleep ${token} > /dev/null 2>&1 & sleep 60`,
	"a setsid double fork": (token: string) =>
		`setsid sh -c '(sleep ${token} > /dev/null 2>&1 &) ; exit 0' > /dev/null 2>&1 & sleep 60`,
};

describe.skipIf(process.platform !== "linux")("no process a bash call started survives it", () => {
	for (const [name, command] of Object.entries(escapes)) {
		it(`abort kills ${name}`, async () => {
			const token = sleeper();
			const workspace = createLocalWorkspace(process.cwd(), { killGraceMs: 100 });
			const tool = createBashToolDefinition(workspace);
			const controller = new AbortController();
			const run = tool.execute("call-1", { command: command(token) }, controller.signal, undefined, noContext);
			const outcome = run.catch((error: Error) => error);
			await waitForProcess(token);
			controller.abort();
			expect(await outcome).toBeInstanceOf(Error);
			expect(((await outcome) as Error).message).toMatch(/Command aborted/);
			expect(await processesWith(token)).toEqual([]);
		});

		it(`timeout kills ${name}`, async () => {
			const token = sleeper();
			const tool = createBashToolDefinition(createLocalWorkspace(process.cwd(), { killGraceMs: 100 }));
			const outcome = await tool
				.execute("call-1", { command: command(token), timeout: 1.5 }, undefined, undefined, noContext)
				.catch((error: Error) => error);
			expect((outcome as Error).message).toMatch(/timed out after 1.5 seconds/);
			expect(await processesWith(token)).toEqual([]);
		});
	}

	const leftBehind = {
		"cmd &": (token: string) => `sleep ${token} & echo done`,
		"cmd & with its output elsewhere": (token: string) => `sleep ${token} > /dev/null 2>&1 & echo done`,
		"nohup cmd &": (token: string) => `nohup sleep ${token} > /dev/null 2>&1 & echo done`,
		"a setsid double fork": (token: string) => `setsid sh -c '(sleep ${token} > /dev/null 2>&1 &)'; echo done`,
	};
	for (const [name, command] of Object.entries(leftBehind)) {
		it(`a call that ends normally leaves nothing running: ${name}`, async () => {
			const token = sleeper();
			const tool = createBashToolDefinition(createLocalWorkspace(process.cwd(), { killGraceMs: 100 }));
			const result = await tool.execute("call-1", { command: command(token) }, undefined, undefined, noContext);
			expect(result.content).toEqual([{ type: "text", text: "done" }]);
			expect(await processesWith(token)).toEqual([]);
		});
	}

	it("twelve parallel calls on one signal print no MaxListenersExceededWarning", async () => {
		const warnings: Error[] = [];
		const onWarning = (warning: Error) => warnings.push(warning);
		process.on("warning", onWarning);
		try {
			const tool = createBashToolDefinition(process.cwd());
			const controller = new AbortController();
			const calls = Array.from({ length: 12 }, (_, index) =>
				tool.execute(`call-${index}`, { command: `echo ${index}` }, controller.signal, undefined, noContext),
			);
			const results = await Promise.all(calls);
			expect(results.map((result) => result.content)).toEqual(
				Array.from({ length: 12 }, (_, index) => [{ type: "text", text: String(index) }]),
			);
			// Warnings are emitted on a later tick.
			await new Promise((resolve) => setImmediate(resolve));
		} finally {
			process.off("warning", onWarning);
		}
		expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
	});
});
