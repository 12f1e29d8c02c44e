import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentToolResult } from "@gantry/agent";
import type { ExtensionToolContext } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAllToolDefinitions } from "../../src/index.js";
import {
	createMappedWorkspace,
	type MappedWorkspace,
	VIRTUAL_HOME,
	VIRTUAL_PROJECT,
	VIRTUAL_TEMP,
} from "../../src/testing/index.js";
import { ripgrepAvailable } from "../grep/ripgrep-available.js";

let mapped: MappedWorkspace;
const noContext = undefined as unknown as ExtensionToolContext;

beforeEach(async () => {
	mapped = await createMappedWorkspace();
	await writeFile(join(mapped.project, "notes.txt"), "alpha\nbeta\ngamma\n");
	await writeFile(join(mapped.project, ".gitignore"), "ignored.txt\n");
	await writeFile(join(mapped.project, "ignored.txt"), "beta\n");
	await writeFile(join(mapped.home, "profile.txt"), "home sweet home\n");
});

afterEach(async () => {
	await mapped.cleanup();
});

function text(result: AgentToolResult<unknown>): string {
	return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

async function run(name: string, args: Record<string, unknown>, options = {}): Promise<AgentToolResult<unknown>> {
	const tools = createAllToolDefinitions(mapped.workspace, options);
	const tool = tools[name as keyof typeof tools];
	return tool.execute(`call-${name}`, args as never, undefined, undefined, noContext);
}

/** The operations recorded since `from`, as `"<operation> <path>"`. */
function since(from: number): string[] {
	return mapped.operations.slice(from);
}

describe("every builtin acts only through its Workspace", () => {
	it("read: stat and open of the mapped path, ~ is the workspace's home", async () => {
		let mark = mapped.operations.length;
		expect(text(await run("read", { path: "notes.txt" }))).toContain("beta");
		// The first stat finds the existing file (exact name, else a look-alike) on the workspace.
		expect(since(mark)).toEqual([
			`stat ${VIRTUAL_PROJECT}/notes.txt`,
			`stat ${VIRTUAL_PROJECT}/notes.txt`,
			`open ${VIRTUAL_PROJECT}/notes.txt`,
		]);

		mark = mapped.operations.length;
		expect(text(await run("read", { path: "~/profile.txt" }))).toContain("home sweet home");
		expect(since(mark)).toContain(`open ${VIRTUAL_HOME}/profile.txt`);
	});

	it("write: creates folders and writes atomically on the workspace", async () => {
		const mark = mapped.operations.length;
		await run("write", { path: "sub/new.txt", content: "fresh\n" });
		expect(await readFile(join(mapped.project, "sub/new.txt"), "utf8")).toBe("fresh\n");
		const seen = since(mark);
		expect(seen).toContain(`mkdir ${VIRTUAL_PROJECT}/sub`);
		expect(seen).toContain(`writeFileAtomic ${VIRTUAL_PROJECT}/sub/new.txt`);
	});

	it("edit: reads, checks and writes the mapped file", async () => {
		const mark = mapped.operations.length;
		await run("edit", { path: "notes.txt", edits: [{ oldText: "beta", newText: "BETA" }] });
		expect(await readFile(join(mapped.project, "notes.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
		const seen = since(mark);
		expect(seen).toContain(`access(write) ${VIRTUAL_PROJECT}/notes.txt`);
		expect(seen).toContain(`readFile ${VIRTUAL_PROJECT}/notes.txt`);
		expect(seen).toContain(`writeFileAtomic ${VIRTUAL_PROJECT}/notes.txt`);
	});

	it("ls: lists the mapped folder", async () => {
		const mark = mapped.operations.length;
		expect(text(await run("ls", {})).split("\n")).toEqual([".gitignore", "ignored.txt", "notes.txt"]);
		expect(since(mark)).toEqual([`stat ${VIRTUAL_PROJECT}`, `readdir ${VIRTUAL_PROJECT}`]);
	});

	it("find: walks the workspace's files (no glob fast path) with its .gitignore", async () => {
		const mark = mapped.operations.length;
		expect(text(await run("find", { pattern: "*.txt" }))).toBe("notes.txt");
		const seen = since(mark);
		expect(seen).toContain(`readdir ${VIRTUAL_PROJECT}`);
		expect(seen).toContain(`readFile ${VIRTUAL_PROJECT}/.gitignore`);
		// The ignore rules above the project are looked up on the workspace too, not on this machine.
		expect(seen).toContain("stat /virtual/.gitignore");
	});

	it("grep (built-in engine): walks and opens files on the workspace", async () => {
		const mark = mapped.operations.length;
		const result = await run("grep", { pattern: "beta" }, { grep: { engine: "builtin" } });
		expect(text(result)).toBe("notes.txt:2: beta");
		expect(since(mark)).toContain(`open ${VIRTUAL_PROJECT}/notes.txt`);
	});

	it.skipIf(!ripgrepAvailable)("grep (ripgrep engine): runs rg through the workspace's processes", async () => {
		const mark = mapped.operations.length;
		const result = await run("grep", { pattern: "beta" }, { grep: { engine: "ripgrep" } });
		expect(text(result)).toBe("notes.txt:2: beta");
		const seen = since(mark);
		expect(seen).toContain("which rg");
		expect(seen).toContain(`spawn rg in ${VIRTUAL_PROJECT}`);
	});

	it("bash: runs in the workspace's cwd and saves long output in its temp folder", async () => {
		let mark = mapped.operations.length;
		const result = await run("bash", { command: "pwd; cat notes.txt" });
		expect(text(result)).toBe(`${mapped.project}\nalpha\nbeta\ngamma`);
		expect(since(mark)).toEqual([`spawn bash in ${VIRTUAL_PROJECT}`]);

		mark = mapped.operations.length;
		const long = await run("bash", { command: "seq 1 5000" });
		const details = long.details as { fullOutputPath?: string };
		expect(details.fullOutputPath?.startsWith(`${VIRTUAL_TEMP}/gantry-bash-`)).toBe(true);
		expect(since(mark)).toContain(`createWriteStream ${details.fullOutputPath}`);
		const saved = join(mapped.temp, details.fullOutputPath?.slice(VIRTUAL_TEMP.length + 1) ?? "");
		expect((await readFile(saved, "utf8")).split("\n")).toHaveLength(5001);
	});

	it("powershell: looks pwsh up on the workspace", async () => {
		const mark = mapped.operations.length;
		const outcome = await run("powershell", { command: "Write-Output hi" }).then(
			(result) => text(result),
			(error: Error) => error.message,
		);
		expect(since(mark)[0]).toBe("which pwsh");
		if (since(mark).length > 1) {
			expect(outcome).toBe("hi");
			expect(since(mark)[1]).toMatch(/^spawn pwsh in \/virtual\/project$/);
		} else {
			expect(outcome).toMatch(/PowerShell is not installed/);
		}
	});

	it("nothing was written outside the mapped folders", async () => {
		await run("write", { path: "/elsewhere/file.txt", content: "x" }).catch(() => undefined);
		expect(existsSync("/elsewhere/file.txt")).toBe(false);
		expect(mapped.operations).toContain("mkdir /elsewhere");
	});
});
