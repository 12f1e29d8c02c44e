import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalBashOperations, createLocalWorkspace } from "../../src/index.js";

let folder: string;
const uncaught: unknown[] = [];
const record = (error: unknown) => uncaught.push(error);

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-output-callbacks-"));
	uncaught.length = 0;
	process.on("uncaughtException", record);
});

afterEach(async () => {
	process.off("uncaughtException", record);
	await rm(folder, { recursive: true, force: true });
});

/** A consumer written in plain JavaScript style: it returns whatever its last expression gave (here a number). */
function collector(chunks: Buffer[]) {
	return ((chunk: Buffer) => chunks.push(chunk)) as unknown as (chunk: Buffer) => undefined;
}

describe("output consumers that return something other than a promise", () => {
	it("spawn treats a non-promise return as 'not busy' and keeps reading", async () => {
		const chunks: Buffer[] = [];
		const workspace = createLocalWorkspace(folder);
		const exit = await workspace.processes.spawn("bash", ["-c", "for i in 1 2 3; do echo line$i; sleep 0.05; done"], {
			cwd: folder,
			onStdout: collector(chunks),
		});
		expect(exit).toEqual({ exitCode: 0 });
		expect(Buffer.concat(chunks).toString("utf8")).toBe("line1\nline2\nline3\n");
		expect(uncaught).toEqual([]);
	});

	it("the local bash operations (for extensions) accept a consumer that returns a number", async () => {
		const chunks: Buffer[] = [];
		const result = await createLocalBashOperations().exec("echo $GANTRY_CALLBACK_VALUE", folder, {
			onData: collector(chunks),
			env: { GANTRY_CALLBACK_VALUE: "from-extension" },
		});
		expect(result.exitCode).toBe(0);
		expect(Buffer.concat(chunks).toString("utf8")).toBe("from-extension\n");
		expect(uncaught).toEqual([]);
	});
});
