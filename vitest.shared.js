// Shared Vitest settings for every package of the workspace.
// Workspace packages resolve to their TypeScript sources, so tests never need a prior build of a
// dependency, and every run writes a JSON report that `.ci/run` sums into one pass/fail line.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));
const e2e = process.env.GANTRY_E2E === "1";

/** @param {import("vitest/config").ViteUserConfig["test"]} [test] */
export function gantryTestConfig(test = {}) {
	return defineConfig({
		resolve: {
			alias: [
				{
					find: /^@gantry\/(ai|agent|extensions|tools|coding-agent|mcp|ssh|sandbox)\/testing$/,
					replacement: `${root}packages/$1/src/testing/index.ts`,
				},
				{
					find: /^@gantry\/(ai|agent|extensions|tools|coding-agent|mcp|ssh|sandbox)$/,
					replacement: `${root}packages/$1/src/index.ts`,
				},
			],
		},
		test: {
			include: e2e ? ["test/**/*.e2e.test.ts"] : ["test/**/*.test.ts"],
			exclude: e2e ? [] : ["test/**/*.e2e.test.ts"],
			reporters: e2e ? ["default"] : ["default", ["json", { outputFile: ".vitest-report.json" }]],
			testTimeout: 20_000,
			hookTimeout: 20_000,
			...test,
		},
	});
}
