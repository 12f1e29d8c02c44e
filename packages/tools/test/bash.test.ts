import { execFile } from "node:child_process";
import { randomInt } from "node:crypto";
import { access, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { AgentToolResult } from "@gantry/agent";
import { type ExtensionToolContext, plainTheme } from "@gantry/extensions";
import { Value } from "@sinclair/typebox/value";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BASH_UPDATE_THROTTLE_MS, createBashToolDefinition } from "../src/shell/bash.js";
import { shellOutputSchema } from "../src/shell/shell-tool.js";
import type { BashOperations, BashToolDetails, BashToolInput } from "../src/shell/types.js";
import { DEFAULT_MAX_BYTES } from "../src/truncate.js";

const execFileAsync = promisify(execFile);
const noContext = undefined as unknown as ExtensionToolContext;

let dir: string;

beforeEach(async () => {
	dir = await realpath(await mkdtemp(join(tmpdir(), "gantry-bash-test-")));
});

afterEach(async () => {
	await rm(dir, { recursive: true, force: true });
});

function run(
	input: BashToolInput,
	options: { signal?: AbortSignal; onUpdate?: (partial: AgentToolResult<BashToolDetails>) => void; cwd?: string } = {},
) {
	const tool = createBashToolDefinition(options.cwd ?? dir, { tempDir: dir });
	return tool.execute("call-1", input, options.signal, options.onUpdate, noContext);
}

function textOf(result: AgentToolResult<unknown>): string {
	return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** A number no other process on the machine has in its arguments: `sleep <marker>` is findable with ps. */
function uniqueMarker(): string {
	return `${900 + randomInt(100)}.${randomInt(1e9)}`;
}

async function processesWith(marker: string): Promise<string[]> {
	const { stdout } = await execFileAsync("ps", ["-eo", "pid,args"]);
	return stdout.split("\n").filter((line) => line.includes(marker));
}

async function killLeftovers(marker: string): Promise<void> {
	for (const line of await processesWith(marker)) process.kill(Number(line.trim().split(/\s+/)[0]), "SIGKILL");
}

describe("bash tool", () => {
	it("runs a command in the working folder and returns its output", async () => {
		const result = await run({ command: "echo hi; pwd" });
		expect(textOf(result)).toBe(`hi\n${dir}`);
		expect(result.isError).toBeUndefined();
		expect(result.details).toMatchObject({ exitCode: 0, truncated: false });
		expect(result.details?.fullOutputPath).toBeUndefined();
	});

	it("returns structuredContent that matches the output schema", async () => {
		const result = await run({ command: "echo structured" });
		expect(Value.Check(shellOutputSchema, result.structuredContent)).toBe(true);
		expect(result.structuredContent).toEqual({
			output: "structured",
			truncated: false,
			exit_code: 0,
			wall_time_seconds: result.details?.wallTimeSeconds,
		});
	});

	it("merges stdout and stderr in the order they were written", async () => {
		const result = await run({
			command: "echo one; sleep 0.1; echo two >&2; sleep 0.1; echo three; sleep 0.1; echo four >&2",
		});
		expect(textOf(result)).toBe("one\ntwo\nthree\nfour");
	});

	it("says (no output) when the command prints nothing", async () => {
		const result = await run({ command: "true" });
		expect(textOf(result)).toBe("(no output)");
		expect(result.structuredContent).toMatchObject({ output: "", exit_code: 0 });
	});

	it("returns a non-zero exit as an error result with the output and the code", async () => {
		const result = await run({ command: "echo failing; echo details >&2; exit 3" });
		expect(result.isError).toBe(true);
		expect(textOf(result)).toBe("failing\ndetails\n\nCommand exited with code 3");
		expect(result.details).toMatchObject({ exitCode: 3 });
		expect(Value.Check(shellOutputSchema, result.structuredContent)).toBe(true);
		expect(result.structuredContent).toMatchObject({ output: "failing\ndetails", exit_code: 3, truncated: false });
	});

	it("reports the signal when one ended the command", async () => {
		const result = await run({ command: "echo before; kill -KILL $$" });
		expect(result.isError).toBe(true);
		expect(textOf(result)).toBe("before\n\nCommand was killed by signal SIGKILL");
		expect(result.structuredContent).toMatchObject({ exit_code: null, signal: "SIGKILL" });
		expect(result.details).toMatchObject({ exitCode: null, signal: "SIGKILL" });
	});

	it("closes stdin so a command waiting for input does not hang", async () => {
		const result = await run({ command: 'cat; read line; echo "got:$line"' });
		expect(textOf(result)).toBe("got:");
	});

	it("passes extra environment variables on top of the inherited ones", async () => {
		const tool = createBashToolDefinition(dir, { env: { GANTRY_BASH_TEST: "from-options" } });
		const result = await tool.execute(
			"call-1",
			{ command: 'echo "$GANTRY_BASH_TEST"; command -v ls' },
			undefined,
			undefined,
			noContext,
		);
		expect(textOf(result)).toMatch(/^from-options\n\/.*ls$/);
	});

	it("decodes a character whose bytes arrive in separate chunks", async () => {
		const result = await run({ command: "printf '\\xe2'; sleep 0.1; printf '\\x82\\xac ok\\n'" });
		expect(textOf(result)).toBe("€ ok");
	});

	it("returns the tail of a 5 MB flood and saves the complete output to a file", async () => {
		const source = join(dir, "flood.txt");
		const line = (index: number) => `${index} ${"data-é-".repeat(12)}`;
		const lines = Array.from({ length: 60_000 }, (_, index) => line(index));
		await writeFile(source, `${lines.join("\n")}\n`);
		const expected = await readFile(source);
		expect(expected.length).toBeGreaterThan(5_000_000);

		const result = await run({ command: `cat '${source}'` });
		const text = textOf(result);
		const [output = "", notice] = text.split("\n\n");
		expect(Buffer.byteLength(output)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
		expect(output.endsWith(line(59_999))).toBe(true);
		expect(notice).toMatch(/^\[Showing last \d+ lines of 60000 \(50\.0 KB limit\)\. Full output: \S+\]$/);

		const fullOutputPath = result.details?.fullOutputPath;
		expect(fullOutputPath).toBeDefined();
		expect(notice).toContain(fullOutputPath);
		expect(fullOutputPath?.startsWith(join(dir, "gantry-bash-"))).toBe(true);
		expect((await readFile(fullOutputPath!)).equals(expected)).toBe(true);
		expect(result.structuredContent).toMatchObject({ truncated: true, full_output_path: fullOutputPath });
	});

	it("says so when only the tail of one over-long line is shown", async () => {
		const result = await run({ command: "head -c 200000 /dev/zero | tr '\\0' 'a'" });
		expect(textOf(result)).toMatch(
			/^a{51200}\n\n\[Showing the last 50\.0 KB of line 1 \(the line is longer than 50\.0 KB\)\. Full output: /,
		);
	});

	it("sends throttled progress updates with the tail of the output", async () => {
		const updates: AgentToolResult<BashToolDetails>[] = [];
		const result = await run(
			{ command: "for i in $(seq 1 25); do echo line$i; sleep 0.02; done" },
			{ onUpdate: (partial) => updates.push(partial) },
		);
		expect(textOf(result).split("\n")).toHaveLength(25);
		expect(updates.length).toBeGreaterThan(1);
		// At most one update per throttle interval of the command's run.
		const wallMs = (result.details?.wallTimeSeconds ?? 0) * 1000;
		expect(updates.length).toBeLessThanOrEqual(Math.floor(wallMs / BASH_UPDATE_THROTTLE_MS) + 1);
		const lastLines = updates.map((update) => Number(/line(\d+)\n$/.exec(textOf(update))?.[1]));
		expect(lastLines.every((line, index) => line >= (lastLines[index - 1] ?? 1))).toBe(true);
		expect(updates[0]?.details).toMatchObject({ exitCode: null, truncated: false });
	});

	it("keeps progress updates within the output limit during a flood", async () => {
		const updates: string[] = [];
		await run(
			{ command: "for i in 1 2 3; do seq 1 100000; sleep 0.15; done" },
			{ onUpdate: (partial) => updates.push(textOf(partial)) },
		);
		expect(updates.length).toBeGreaterThan(1);
		for (const update of updates) expect(Buffer.byteLength(update)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
	});

	it("kills the whole process tree on timeout and reports the output so far", async () => {
		const marker = uniqueMarker();
		const command = `sleep ${marker} & (sleep ${marker} & sleep ${marker}) & bash -c 'sleep ${marker}' & echo started; sleep ${marker}`;
		try {
			await expect(run({ command, timeout: 0.5 })).rejects.toThrow(/^started\n\nCommand timed out after 0\.5 seconds$/);
			expect(await processesWith(marker)).toEqual([]);
		} finally {
			await killLeftovers(marker);
		}
	});

	it("kills processes that ignore SIGTERM", async () => {
		const marker = uniqueMarker();
		const command = `trap '' TERM; sleep ${marker} & echo started; sleep ${marker}`;
		try {
			await expect(run({ command, timeout: 0.3 })).rejects.toThrow(/Command timed out after 0\.3 seconds/);
			expect(await processesWith(marker)).toEqual([]);
		} finally {
			await killLeftovers(marker);
		}
	});

	it("kills the whole process tree on abort and reports the output so far", async () => {
		const marker = uniqueMarker();
		const controller = new AbortController();
		const command = `sleep ${marker} & (sleep ${marker} & sleep ${marker}) & echo ready; sleep ${marker}`;
		try {
			const running = run({ command }, { signal: controller.signal, onUpdate: () => controller.abort() });
			await expect(running).rejects.toThrow(/^ready\n\nCommand aborted$/);
			expect(await processesWith(marker)).toEqual([]);
		} finally {
			await killLeftovers(marker);
		}
	});

	it("does not wait for background processes a finished command left behind", async () => {
		const marker = uniqueMarker();
		try {
			const result = await run({ command: `sleep ${marker} & echo done` });
			expect(textOf(result)).toBe("done");
		} finally {
			await killLeftovers(marker);
		}
	});

	it("does nothing when the signal is already aborted", async () => {
		const controller = new AbortController();
		controller.abort();
		await expect(run({ command: "touch created" }, { signal: controller.signal })).rejects.toThrow("Operation aborted");
		await expect(access(join(dir, "created"))).rejects.toThrow();
	});

	it.each([[0], [-5], [Number.NaN], ["10"], [1e12]])("rejects the invalid timeout %s", async (timeout) => {
		await expect(run({ command: "touch created", timeout: timeout as number })).rejects.toThrow(/Invalid timeout/);
		await expect(access(join(dir, "created"))).rejects.toThrow();
	});

	it("treats a null timeout as no timeout", async () => {
		const result = await run({ command: "echo ok", timeout: null as unknown as number });
		expect(textOf(result)).toBe("ok");
	});

	it("names a missing working folder", async () => {
		const missing = join(dir, "does-not-exist");
		await expect(run({ command: "echo hi" }, { cwd: missing })).rejects.toThrow(
			`Working directory does not exist: ${missing}`,
		);
	});

	it("runs commands through custom operations", async () => {
		const calls: string[] = [];
		const operations: BashOperations = {
			async exec(command, cwd, { onData }) {
				calls.push(`${cwd}$ ${command}`);
				onData(Buffer.from("remote "));
				onData(Buffer.from("output\n"));
				return { exitCode: 2 };
			},
		};
		const tool = createBashToolDefinition("/srv/app", { operations });
		const result = await tool.execute("call-1", { command: "make" }, undefined, undefined, noContext);
		expect(calls).toEqual(["/srv/app$ make"]);
		expect(textOf(result)).toBe("remote output\n\nCommand exited with code 2");
		expect(result.isError).toBe(true);
	});

	it("says so when custom operations report neither an exit code nor a signal", async () => {
		const operations: BashOperations = {
			async exec(_command, _cwd, { onData }) {
				onData(Buffer.from("half done\n"));
				return { exitCode: null };
			},
		};
		const tool = createBashToolDefinition("/srv/app", { operations });
		const result = await tool.execute("call-1", { command: "deploy" }, undefined, undefined, noContext);
		expect(textOf(result)).toBe(
			"half done\n\nCommand ended without an exit code (the process or its connection was lost before reporting one)",
		);
		expect(result.isError).toBe(true);
		expect(result.structuredContent).toMatchObject({ exit_code: null });
		const status = tool.renderResult?.(result, { expanded: false, isPartial: false }, plainTheme) ?? "";
		expect(status).toMatch(/\nno exit code · \d+\.\ds$/);
	});

	it("declares itself as a destructive, open-world tool with strict sampling", () => {
		const tool = createBashToolDefinition(dir);
		expect(tool.name).toBe("bash");
		expect(tool.annotations).toMatchObject({ destructiveHint: true, openWorldHint: true });
		expect(tool.constrainedSampling).toEqual({ type: "json_schema", strict: "prefer" });
		expect(tool.outputSchema).toBe(shellOutputSchema);
	});

	it("renders the call and the result", async () => {
		const tool = createBashToolDefinition(dir, { tempDir: dir });
		expect(tool.renderCall?.({ command: "npm test", timeout: 60 }, plainTheme)).toBe("$ npm test (timeout 60s)");
		const result = await tool.execute("call-1", { command: "seq 1 10; exit 1" }, undefined, undefined, noContext);
		const collapsed = tool.renderResult?.(result, { expanded: false, isPartial: false }, plainTheme) ?? "";
		expect(collapsed.split("\n")[0]).toBe("… 7 earlier lines");
		expect(collapsed).toMatch(/exit 1 · \d+\.\ds$/);
		const expanded = tool.renderResult?.(result, { expanded: true, isPartial: false }, plainTheme) ?? "";
		expect(expanded.startsWith("1\n2\n")).toBe(true);
	});
});
