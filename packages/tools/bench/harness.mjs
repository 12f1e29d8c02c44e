// Tiny benchmark harness shared by the tool benchmarks: medians of repeated runs and a printed table.
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";

/** Runs `fn` `warmup` times unmeasured, then `runs` times; returns the median wall time in ms. */
export async function medianMs(fn, { runs = 7, warmup = 1 } = {}) {
	for (let index = 0; index < warmup; index++) await fn();
	const times = [];
	for (let index = 0; index < runs; index++) {
		const start = performance.now();
		await fn();
		times.push(performance.now() - start);
	}
	times.sort((a, b) => a - b);
	return times[Math.floor(times.length / 2)];
}

/** "met" or "missed" for a target written `≤ 1.3x` or `<= 2x` (the ratio's ceiling); "" without one. */
export function targetStatus(target, ratio) {
	const ceiling = /^(?:≤|<=)\s*([0-9.]+)\s*x$/.exec(String(target ?? "").trim());
	if (ceiling === null) return "";
	return ratio <= Number(ceiling[1]) ? "met" : "MISSED";
}

/** The machine's load averages (1, 5, 15 minutes), for the title of a table measured on a shared machine. */
export function loadAverage() {
	return loadavg()
		.map((value) => value.toFixed(2))
		.join(" ");
}

/**
 * Prints rows of `{ case, gantryMs, floor, floorMs, target?, note? }` as a table with the ratio
 * gantry / floor (or the row's own `ratio`, a median of per-round ratios) and whether it meets its
 * target, and returns the rows with their ratio.
 */
export function printTable(title, rows) {
	const withRatio = rows.map((row) => ({ ...row, ratio: row.ratio ?? row.gantryMs / row.floorMs }));
	const header = ["case", "gantry (median ms)", "floor", "floor (median ms)", "ratio", "target", "status", "note"];
	const lines = withRatio.map((row) => [
		row.case,
		row.gantryMs.toFixed(2),
		row.floor,
		row.floorMs.toFixed(2),
		`${row.ratio.toFixed(2)}x`,
		row.target ?? "",
		targetStatus(row.target, row.ratio),
		row.note ?? "",
	]);
	const widths = header.map((cell, column) =>
		Math.max(cell.length, ...lines.map((line) => String(line[column]).length)),
	);
	const format = (cells) => `| ${cells.map((cell, column) => String(cell).padEnd(widths[column])).join(" | ")} |`;
	console.log(`\n### ${title}\n\nload average ${loadAverage()} at the end\n`);
	console.log(format(header));
	console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
	for (const line of lines) console.log(format(line));
	return withRatio;
}
