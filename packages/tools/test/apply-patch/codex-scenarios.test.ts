import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { wrapToolDefinition } from "@gantry/extensions";
import { afterEach, describe, expect, it } from "vitest";
import { createApplyPatchToolDefinition } from "../../src/apply-patch/apply-patch.js";

/** Codex's own scenarios (see fixtures/codex-apply-patch/SOURCES.md): input, patch.txt, expected. */
const SCENARIOS = join(import.meta.dirname, "../fixtures/codex-apply-patch/scenarios");

/**
 * Where Gantry deliberately does not end where Codex does, and why. Codex applies a patch file by file
 * and leaves what it wrote before a later section failed; Gantry checks every section first and
 * writes nothing unless all apply, so the folder ends as it began.
 */
const GANTRY_DIFFERS: Record<string, { reason: string; expected: "input" }> = {
	"015_failure_after_partial_success_leaves_changes": {
		reason: "all or nothing: the update of a missing file fails, so the file added before it is not written",
		expected: "input",
	},
};

/** Every file under `root` (relative path → bytes); folders themselves are not compared (git keeps none empty). */
async function snapshot(root: string): Promise<Record<string, string>> {
	const files: Record<string, string> = {};
	const walk = async (folder: string): Promise<void> => {
		const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
		for (const entry of entries) {
			const path = join(folder, entry.name);
			if (entry.isDirectory()) await walk(path);
			else files[relative(root, path)] = (await readFile(path)).toString("base64");
		}
	};
	await walk(root);
	return files;
}

const folders: string[] = [];
afterEach(async () => {
	await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

const scenarios = (await readdir(SCENARIOS, { withFileTypes: true }))
	.filter((entry) => entry.isDirectory())
	.map((entry) => entry.name)
	.sort();

describe("apply_patch against Codex's scenario fixtures", () => {
	it("finds the scenarios", () => {
		expect(scenarios.length).toBeGreaterThanOrEqual(23);
	});

	it.each(scenarios)("%s", async (name) => {
		const scenario = join(SCENARIOS, name);
		const folder = await mkdtemp(join(tmpdir(), "gantry-codex-scenario-"));
		folders.push(folder);
		await cp(join(scenario, "input"), folder, { recursive: true }).catch((error: NodeJS.ErrnoException) => {
			if (error.code !== "ENOENT") throw error;
		});
		const before = await snapshot(folder);
		const patch = await readFile(join(scenario, "patch.txt"), "utf8");
		const tool = wrapToolDefinition(createApplyPatchToolDefinition(folder));
		// Like Codex's runner, the outcome is judged by the files alone; a failing patch throws.
		await tool.execute("call_1", { input: patch }).catch(() => undefined);
		const differs = GANTRY_DIFFERS[name];
		const expected = differs?.expected === "input" ? before : await snapshot(join(scenario, "expected"));
		expect(await snapshot(folder)).toEqual(expected);
	});

	it("015 is where Gantry differs: Codex keeps created.txt, Gantry writes nothing and says why", async () => {
		const scenario = join(SCENARIOS, "015_failure_after_partial_success_leaves_changes");
		expect(Object.keys(await snapshot(join(scenario, "expected")))).toEqual(["created.txt"]);
		const folder = await mkdtemp(join(tmpdir(), "gantry-codex-scenario-"));
		folders.push(folder);
		const tool = wrapToolDefinition(createApplyPatchToolDefinition(folder));
		const patch = await readFile(join(scenario, "patch.txt"), "utf8");
		await expect(tool.execute("call_1", { input: patch })).rejects.toThrow(/missing\.txt .*does not exist/);
		expect(await snapshot(folder)).toEqual({});
	});
});
