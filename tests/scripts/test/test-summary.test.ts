// The summary CI reads, from real Vitest JSON reports laid out as the workspace holds them.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { REPORT_FILE, removeReports, summarize } from "../../../scripts/test-summary.mjs";

let root = "";

function addPackage(path: string, scripts: Record<string, string>, report?: object): void {
	mkdirSync(join(root, path), { recursive: true });
	writeFileSync(join(root, path, "package.json"), JSON.stringify({ name: path, scripts }));
	if (report !== undefined) writeFileSync(join(root, path, REPORT_FILE), JSON.stringify(report));
}

beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), "gantry-summary-"));
});

afterEach(() => {
	rmSync(root, { recursive: true, force: true });
});

describe("the test summary", () => {
	it("adds up packages, apps and tests, and counts a suite that failed to load", () => {
		addPackage("packages/one", { test: "vitest run" }, { numPassedTests: 5, numFailedTests: 1, numPendingTests: 2 });
		addPackage("apps/two", { test: "vitest run" }, { numPassedTests: 3, numFailedTests: 0, numTodoTests: 1 });
		addPackage(
			"tests/three",
			{ test: "vitest run" },
			{ numPassedTests: 0, numFailedTests: 0, testResults: [{ status: "failed", assertionResults: [] }] },
		);
		const summary = summarize(root);
		expect(summary.line).toBe("8 passed, 2 failed, 3 skipped");
		expect(summary.failing).toEqual(["packages/one", "tests/three"]);
	});

	it("counts a tested package without a report as a failure only when every package was asked to run", () => {
		addPackage("packages/ran", { test: "vitest run" }, { numPassedTests: 2, numFailedTests: 0 });
		addPackage("packages/silent", { test: "vitest run" });
		addPackage("packages/untested", { build: "tsc" });
		expect(summarize(root).line).toBe("2 passed, 0 failed");
		const strict = summarize(root, { expectAll: true });
		expect(strict.line).toBe("2 passed, 1 failed");
		expect(strict.missing).toEqual(["packages/silent"]);
	});

	it("removes the reports of an earlier run", () => {
		addPackage("packages/old", { test: "vitest run" }, { numPassedTests: 9, numFailedTests: 0 });
		removeReports(root);
		expect(existsSync(join(root, "packages/old", REPORT_FILE))).toBe(false);
		expect(summarize(root, { expectAll: true }).line).toBe("0 passed, 1 failed");
	});
});
