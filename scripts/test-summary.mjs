// Sums the per-package Vitest JSON reports into the one line CI reads: "N passed, N failed[, N skipped]".
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
let passed = 0;
let failed = 0;
let skipped = 0;
const missing = [];
for (const group of ["packages", "apps", "tests"]) {
	const groupDir = join(root, group);
	if (!existsSync(groupDir)) continue;
	for (const name of readdirSync(groupDir)) {
		const packageDir = join(groupDir, name);
		if (!existsSync(join(packageDir, "package.json"))) continue;
		const reportPath = join(packageDir, ".vitest-report.json");
		if (!existsSync(reportPath)) {
			missing.push(`${group}/${name}`);
			continue;
		}
		const report = JSON.parse(readFileSync(reportPath, "utf8"));
		passed += report.numPassedTests ?? 0;
		failed += report.numFailedTests ?? 0;
		skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
		// A suite that failed to load counts as a failure even when it had no test to fail.
		for (const suite of report.testResults ?? []) {
			if (suite.status === "failed" && (suite.assertionResults ?? []).length === 0) failed++;
		}
	}
}
if (missing.length > 0) console.log(`no test report from: ${missing.join(", ")}`);
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
