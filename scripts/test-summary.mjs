#!/usr/bin/env node
// Sums the per-package Vitest JSON reports into the one line CI reads: "N passed, N failed[, N skipped]".
// `--expect-all`: a package with a `test` script but no report (its Vitest crashed, or never ran) counts
// as one failure, so a package that could not even start its tests is never left out of the count.
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The folders of the workspace that hold packages. */
const GROUPS = ["packages", "apps", "tests"];
/** Where each package's Vitest writes its JSON report (`vitest.shared.js`). */
export const REPORT_FILE = ".vitest-report.json";

/** The packages of the workspace at `root` that have a `test` script, as `group/name` with their folder. */
export function testedPackages(root) {
	const found = [];
	for (const group of GROUPS) {
		const groupDir = join(root, group);
		if (!existsSync(groupDir)) continue;
		for (const name of readdirSync(groupDir).sort()) {
			const dir = join(groupDir, name);
			const manifestPath = join(dir, "package.json");
			if (!existsSync(manifestPath)) continue;
			const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
			if (typeof manifest.scripts?.test === "string") found.push({ id: `${group}/${name}`, dir });
		}
	}
	return found;
}

/** Deletes every package's report, so a summary after a run never counts an older run's tests. */
export function removeReports(root) {
	for (const { dir } of testedPackages(root)) rmSync(join(dir, REPORT_FILE), { force: true });
}

/**
 * Adds up the reports of every tested package under `root`. `expectAll` counts a missing report as one
 * failure. Returns the counts, the packages without a report, and the closing line.
 */
export function summarize(root, { expectAll = false } = {}) {
	let passed = 0;
	let failed = 0;
	let skipped = 0;
	const missing = [];
	const failing = [];
	for (const { id, dir } of testedPackages(root)) {
		const reportPath = join(dir, REPORT_FILE);
		if (!existsSync(reportPath)) {
			missing.push(id);
			if (expectAll) failed++;
			continue;
		}
		const report = JSON.parse(readFileSync(reportPath, "utf8"));
		let packageFailed = report.numFailedTests ?? 0;
		passed += report.numPassedTests ?? 0;
		skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
		// A suite that failed to load counts as a failure even when it had no test to fail.
		for (const suite of report.testResults ?? []) {
			if (suite.status === "failed" && (suite.assertionResults ?? []).length === 0) packageFailed++;
		}
		failed += packageFailed;
		if (packageFailed > 0) failing.push(id);
	}
	const line = `${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`;
	return { passed, failed, skipped, missing, failing, line };
}

/** Prints the summary: which packages failed or gave no report, then the closing line. */
export function printSummary(root, options = {}) {
	const summary = summarize(root, options);
	if (summary.failing.length > 0) console.log(`failed in: ${summary.failing.join(", ")}`);
	if (summary.missing.length > 0) {
		const note = options.expectAll ? " (each counted as one failure)" : "";
		console.log(`no test report from: ${summary.missing.join(", ")}${note}`);
	}
	console.log(summary.line);
	return summary;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const root = fileURLToPath(new URL("..", import.meta.url));
	const summary = printSummary(root, { expectAll: process.argv.includes("--expect-all") });
	process.exitCode = summary.failed > 0 ? 1 : 0;
}
