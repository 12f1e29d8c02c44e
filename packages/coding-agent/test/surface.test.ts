import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";

describe("@gantry/coding-agent surface", () => {
	it("exports exactly the public runtime names", () => {
		expect(Object.keys(api).sort()).toEqual(
			[
				"AgentSession",
				"CHECKPOINT_FILE_SIZE_LIMIT",
				"CONTEXT_FILES_MAX_BYTES",
				"CONTEXT_FILE_NAMES",
				"CodingAgentError",
				"DEFAULT_CODEMODE_MAX_OUTPUT_TOKENS",
				"DEFAULT_CODEMODE_MEMORY_LIMIT_BYTES",
				"DEFAULT_CODEMODE_TIMEOUT_MS",
				"NESTED_CALL_LIMITS",
				"PERMISSION_MODES",
				"PermissionHints",
				"Transcript",
				"analyzeShellCommand",
				"buildSystemPrompt",
				"checkPermissionRule",
				"classifyTool",
				"closestName",
				"compileNamePatterns",
				"createAgentSession",
				"createCodemodeToolDefinition",
				"createPermissionPolicy",
				"createToolSearchToolDefinition",
				"explainToolPermission",
				"findContextFiles",
				"isProjectTrusted",
				"listTranscriptCheckpoints",
				"loadSettings",
				"loadTranscript",
				"nextPermissionMode",
				"permissionModeOf",
				"rankTools",
				"readRecordedModel",
				"rewindTranscript",
				"rulesMatchingNoTool",
				"runCodemodeScript",
				"trustProject",
				"trustProjectOn",
			].sort(),
		);
	});

	it("keeps every source file under 400 lines", () => {
		const walk = (dir: string): string[] =>
			readdirSync(dir).flatMap((name) => {
				const path = join(dir, name);
				return statSync(path).isDirectory() ? walk(path) : [path];
			});
		const long = walk(join(import.meta.dirname, "../src"))
			.map((path) => ({ path, lines: readFileSync(path, "utf8").split("\n").length }))
			.filter((file) => file.lines > 400);
		expect(long).toEqual([]);
	});
});
