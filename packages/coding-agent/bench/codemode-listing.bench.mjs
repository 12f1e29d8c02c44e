// Benchmark of codemode's tool listing: the characters its description spends on N tools reached only through
// scripts, against declaring the same tools directly (name, description and JSON Schema parameters, as a
// provider receives them). Target: for 200 tools, the listing is at most 8 % of the direct declarations, with
// every listed tool's parameters named and typed (what a script needs to call it right).
// Usage: pnpm run build && node bench/codemode-listing.bench.mjs
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { realisticTools } from "./tool-catalog.mjs";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const { buildCodemodeDescription, codemodeSchema } = await import(
	pathToFileURL(join(packageDir, "dist", "codemode", "index.js")).href
);

const limits = { mode: "on", timeoutMs: 30_000, memoryLimitBytes: 64 * 1024 * 1024, maxOutputTokens: 10_000 };
const bytes = (value) => Buffer.byteLength(JSON.stringify(value));

const rows = [];
for (const count of [20, 50, 100, 200]) {
	const tools = realisticTools(count);
	const direct = tools.reduce((sum, tool) => sum + bytes(tool), 0);
	const description = buildCodemodeDescription(tools, limits);
	const listing = bytes({ name: "codemode", description, parameters: codemodeSchema });
	const listed = tools.filter((tool) => description.includes(`tools.${tool.name}(`)).length;
	const ratio = (listing / direct) * 100;
	const target = count === 200 ? (ratio <= 8 ? "≤ 8 %: met" : "≤ 8 %: MISSED") : "";
	rows.push([
		String(count),
		`${(direct / 1024).toFixed(1)} KiB`,
		`${(listing / 1024).toFixed(1)} KiB`,
		`${ratio.toFixed(1)} %`,
		`${listed} of ${count}`,
		target,
	]);
}

const header = ["tools", "declared directly", "codemode listing", "listing / direct", "with signatures", "target"];
const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column].length)));
const line = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(" | ")} |`;
console.log("\n### codemode listing (realistic tools: bench/tool-catalog.mjs)\n");
console.log(line(header));
console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
for (const row of rows) console.log(line(row));
