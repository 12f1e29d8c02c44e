#!/usr/bin/env node
// `pnpm test`: every package's tests, one package at a time, on to the next even when one fails
// (turbo `--continue`), then one summary line counting them all: "N passed, N failed[, N skipped]".
// Exits non-zero when any package failed. Arguments are passed to `turbo run test` (`--filter=…`); with
// a filter, packages left out are not counted as missing.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { printSummary, removeReports } from "./test-summary.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const extra = process.argv.slice(2);

removeReports(root);
const turbo = createRequire(`${root}package.json`).resolve("turbo/bin/turbo");
const code = await new Promise((resolve) => {
	const child = spawn(process.execPath, [turbo, "run", "test", "--concurrency=1", "--continue", ...extra], {
		cwd: root,
		stdio: "inherit",
	});
	child.on("error", (error) => {
		console.error(`could not start turbo: ${error.message}`);
		resolve(1);
	});
	child.on("close", (exitCode) => resolve(exitCode ?? 1));
});
const summary = printSummary(root, { expectAll: extra.length === 0 });
process.exitCode = code !== 0 || summary.failed > 0 ? code || 1 : 0;
