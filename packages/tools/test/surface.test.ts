import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

describe("@gantry/tools surface", () => {
	it("exports exactly the public runtime names", () => {
		expect(Object.keys(api).sort()).toEqual([
			"APPLY_PATCH_LARK_GRAMMAR",
			"BASH_UPDATE_THROTTLE_MS",
			"DEFAULT_FIND_LIMIT",
			"DEFAULT_GREP_LIMIT",
			"DEFAULT_IMAGE_MAX_BYTES",
			"DEFAULT_IMAGE_MAX_HEIGHT",
			"DEFAULT_IMAGE_MAX_WIDTH",
			"DEFAULT_LS_LIMIT",
			"DEFAULT_MAX_BYTES",
			"DEFAULT_MAX_LINES",
			"GREP_MAX_LINE_LENGTH",
			"OutputAccumulator",
			"PatchParseError",
			"applyPatchOutputSchema",
			"applyPatchSchema",
			"bashSchema",
			"compileFindPattern",
			"createAllToolDefinitions",
			"createApplyPatchToolDefinition",
			"createBashToolDefinition",
			"createCodingToolDefinitions",
			"createEditToolDefinition",
			"createFindToolDefinition",
			"createGrepToolDefinition",
			"createLocalBashOperations",
			"createLocalPowerShellOperations",
			"createLocalWorkspace",
			"createLsToolDefinition",
			"createOutputPump",
			"createPowerShellToolDefinition",
			"createReadOnlyToolDefinitions",
			"createReadToolDefinition",
			"createWriteToolDefinition",
			"editOutputSchema",
			"editSchema",
			"findOutputSchema",
			"findSchema",
			"formatSize",
			"grepOutputSchema",
			"grepSchema",
			"isSecretVariableName",
			"localBashOperations",
			"localEditOperations",
			"localFindOperations",
			"localGrepOperations",
			"localLsOperations",
			"localPowerShellOperations",
			"localReadOperations",
			"localWriteOperations",
			"looksBinary",
			"lsOutputSchema",
			"lsSchema",
			"parsePatch",
			"powershellSchema",
			"processImage",
			"processImageBytes",
			"readOutputSchema",
			"readSchema",
			"resolveExistingPath",
			"resolveToolPath",
			"toolProcessEnvironment",
			"truncateHead",
			"truncateLine",
			"truncateTail",
			"withFileMutationQueue",
			"writeOutputSchema",
			"writeSchema",
		]);
		expect(api.DEFAULT_MAX_LINES).toBe(2000);
		expect(api.DEFAULT_MAX_BYTES).toBe(50 * 1024);
		expect(api.BASH_UPDATE_THROTTLE_MS).toBe(100);
	});

	it("builds the tool sets with the documented names, annotations and sampling", async () => {
		const cwd = await mkdtemp(join(tmpdir(), "gantry-tools-surface-"));
		try {
			const all = api.createAllToolDefinitions(cwd);
			expect(Object.keys(all)).toEqual([
				"read",
				"bash",
				"edit",
				"write",
				"grep",
				"find",
				"ls",
				"powershell",
				"apply_patch",
			]);
			for (const [name, definition] of Object.entries(all)) {
				expect(definition.name).toBe(name);
				expect(definition.promptSnippet, name).toBeTruthy();
				expect(definition.outputSchema, name).toBeDefined();
				expect(definition.promptSnippet?.startsWith(`${name}:`), `${name} snippet repeats the name`).toBe(false);
			}
			for (const name of ["read", "grep", "find", "ls"] as const) {
				expect(all[name].annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
			}
			for (const name of ["edit", "write", "apply_patch"] as const) {
				expect(all[name].annotations?.destructiveHint).toBe(true);
			}
			expect(all.apply_patch.constrainedSampling).toEqual({
				type: "grammar",
				syntax: "lark",
				definition: api.APPLY_PATCH_LARK_GRAMMAR,
			});
			for (const name of ["bash", "powershell"] as const) {
				expect(all[name].annotations).toMatchObject({ destructiveHint: true, openWorldHint: true });
			}
			for (const name of ["read", "bash", "edit", "write"] as const) {
				expect(all[name].constrainedSampling).toEqual({ type: "json_schema", strict: "prefer" });
			}
			expect(api.createCodingToolDefinitions(cwd).map((tool) => tool.name)).toEqual(["read", "bash", "edit", "write"]);
			expect(api.createReadOnlyToolDefinitions(cwd).map((tool) => tool.name)).toEqual(["read", "grep", "find", "ls"]);
		} finally {
			await rm(cwd, { recursive: true, force: true });
		}
	});
});
