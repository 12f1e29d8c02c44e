// `pnpm test` (scripts/test.mjs) in a workspace of its own: one package passes, one fails its tests and one
// exits before writing any report. Every package must run, the command must exit non-zero, and the summary
// must count them all.
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = new URL("../../../", import.meta.url).pathname;

/** The environment without the variables of a turbo run this test may itself be running under. */
function cleanEnvironment(): NodeJS.ProcessEnv {
	const environment: NodeJS.ProcessEnv = { TURBO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0", NO_COLOR: "1" };
	for (const [key, value] of Object.entries(process.env)) {
		if (!key.startsWith("TURBO_") && !key.startsWith("VITEST") && key !== "NODE_ENV") environment[key] ??= value;
	}
	return environment;
}

function writePackage(workspace: string, name: string, test: string, files: Record<string, string> = {}): void {
	const dir = join(workspace, "packages", name);
	mkdirSync(join(dir, "test"), { recursive: true });
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name, private: true, type: "module", scripts: { test } }));
	for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
}

const VITEST = "vitest run --reporter=default --reporter=json --outputFile=.vitest-report.json";
let workspace = "";
let result: { code: number; stdout: string; output: string };

beforeAll(async () => {
	workspace = mkdtempSync(join(tmpdir(), "gantry-test-command-"));
	// The repository's own command, turbo configuration and tools (turbo, vitest through node_modules).
	mkdirSync(join(workspace, "scripts"));
	for (const file of ["test.mjs", "test-summary.mjs"])
		copyFileSync(join(ROOT, "scripts", file), join(workspace, "scripts", file));
	copyFileSync(join(ROOT, "turbo.json"), join(workspace, "turbo.json"));
	symlinkSync(join(ROOT, "node_modules"), join(workspace, "node_modules"), "dir");
	writeFileSync(
		join(workspace, "package.json"),
		JSON.stringify({ name: "workspace", private: true, type: "module", packageManager: "pnpm@12.4.2" }),
	);
	writeFileSync(join(workspace, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n");
	// Named so that turbo reaches the failing packages before the passing one.
	writePackage(workspace, "a-fails", VITEST, {
		"test/a.test.mjs": `import { expect, it } from "vitest";\nit("fails", () => expect(1).toBe(2));\nit("passes", () => {});\n`,
	});
	writePackage(workspace, "b-crashes", `node -e "process.exit(3)"`);
	writePackage(workspace, "c-passes", VITEST, {
		"test/c.test.mjs": `import { it } from "vitest";\nit("one", () => {});\nit("two", () => {});\nit.skip("later", () => {});\n`,
	});
	try {
		const { stdout, stderr } = await run(process.execPath, [join(workspace, "scripts", "test.mjs")], {
			cwd: workspace,
			env: cleanEnvironment(),
		});
		result = { code: 0, stdout, output: stdout + stderr };
	} catch (error) {
		const failed = error as { code?: number; stdout?: string; stderr?: string };
		result = {
			code: failed.code ?? -1,
			stdout: failed.stdout ?? "",
			output: `${failed.stdout ?? ""}${failed.stderr ?? ""}`,
		};
	}
});

afterAll(() => {
	if (workspace !== "") rmSync(workspace, { recursive: true, force: true });
});

describe("pnpm test", () => {
	it("runs every package although the first ones fail, and exits non-zero", () => {
		expect(result.code, result.output).not.toBe(0);
		expect(result.output).toContain("JSON report written to");
		expect(result.output).toMatch(/c-passes:test: .*Tests\s+2 passed/s);
	});

	it("ends with one summary line counting every package, a crashed one as a failure", () => {
		const lines = result.stdout.trim().split("\n");
		expect(lines.at(-1)).toBe("3 passed, 2 failed, 1 skipped");
		expect(lines).toContain("failed in: packages/a-fails");
		expect(lines).toContain("no test report from: packages/b-crashes (each counted as one failure)");
	});
});
