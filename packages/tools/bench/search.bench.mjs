// Benchmark of grep (both engines), find and ls on the shared 20,000-file tree, each against its
// plain-tool floor measured in the same run. Run `npx tsc -p tsconfig.build.json` first: it imports
// the built code from ../dist.
import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createFindToolDefinition } from "../dist/find/find.js";
import { createGrepToolDefinition } from "../dist/grep/grep.js";
import { createLsToolDefinition } from "../dist/ls/ls.js";
import { loadAverage, printTable } from "./harness.mjs";
import { ensureTree } from "./workload.mjs";

const run = promisify(execFile);
const treeDir = fileURLToPath(new URL("../.bench-work/search/tree", import.meta.url));
const RUNS = { runs: 5, warmup: 1 };

console.log(`Preparing the workload (first run only)... load average ${loadAverage()}`);
const tree = await ensureTree(treeDir);

/** Runs a command in the tree; exit code 1 ("nothing found") is not a failure. */
async function plain(command, args, cwd = tree.dir) {
	try {
		await run(command, args, { cwd, maxBuffer: 256 * 1024 * 1024 });
	} catch (error) {
		if (error.code !== 1) throw error;
	}
}

function tool(definition) {
	return (params) => definition.execute("bench", params, undefined, undefined, undefined);
}

const builtinGrep = tool(createGrepToolDefinition(tree.dir, { engine: "builtin" }));
const ripgrepGrep = tool(createGrepToolDefinition(tree.dir, { engine: "ripgrep" }));
const find = tool(createFindToolDefinition(tree.dir));
const ls = tool(createLsToolDefinition(tree.dir));

// Sanity: both engines agree, and the workload is what the table says.
for (const needle of [tree.needle, tree.rareNeedle]) {
	const [a, b] = await Promise.all([
		builtinGrep({ pattern: needle, literal: true }),
		ripgrepGrep({ pattern: needle, literal: true }),
	]);
	if (a.content[0].text !== b.content[0].text) throw new Error(`engines disagree on ${needle}`);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Medians of `gantry` and `floor` timed in alternation (which goes first swaps each round), so a change
 * in the machine's load during the case weighs on both sides alike.
 */
async function interleavedMedians(gantry, floor, { runs, warmup }) {
	for (let index = 0; index < warmup; index++) {
		await gantry();
		await floor();
	}
	const times = { gantry: [], floor: [] };
	const timed = async (name, fn) => {
		const start = performance.now();
		await fn();
		times[name].push(performance.now() - start);
	};
	for (let index = 0; index < runs; index++) {
		if (index % 2 === 0) {
			await timed("gantry", gantry);
			await timed("floor", floor);
		} else {
			await timed("floor", floor);
			await timed("gantry", gantry);
		}
	}
	return { gantryMs: median(times.gantry), floorMs: median(times.floor) };
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Only the cases whose label contains this text (`BENCH_CASES=grep`); default all. */
const CASES = process.env.BENCH_CASES;

const rows = [];
/**
 * Runs the interleaved comparison ROUNDS times; the row's ratio is the median of the rounds' ratios
 * (each against its floor in the same round), its times the medians of the rounds' medians.
 */
const measure = async (label, gantry, floorName, floor, target, note, runs = RUNS) => {
	if (CASES !== undefined && !label.includes(CASES)) return;
	const rounds = [];
	for (let round = 0; round < ROUNDS; round++) rounds.push(await interleavedMedians(gantry, floor, runs));
	const ratios = rounds.map((round) => round.gantryMs / round.floorMs);
	rows.push({
		case: label,
		gantryMs: median(rounds.map((round) => round.gantryMs)),
		floor: floorName,
		floorMs: median(rounds.map((round) => round.floorMs)),
		ratio: median(ratios),
		target,
		note: [note, `rounds ${ratios.map((ratio) => ratio.toFixed(2)).join(" ")}`].filter(Boolean).join("; "),
	});
};

await measure(
	"grep literal, builtin engine (limit 100)",
	() => builtinGrep({ pattern: tree.needle, literal: true }),
	"grep -rnF",
	() => plain("grep", ["-rnF", tree.needle, "."]),
	"≤ 1.3x",
	"stops once 101 matches are found in path order",
);
await measure(
	"grep rare literal, builtin engine (whole tree)",
	() => builtinGrep({ pattern: tree.rareNeedle, literal: true }),
	"grep -rnF",
	() => plain("grep", ["-rnF", tree.rareNeedle, "."]),
	"≤ 1.3x",
	"3 matches: every file read",
);
await measure(
	"grep regex -i, builtin engine (whole tree)",
	() => builtinGrep({ pattern: "veryrare\\w+marker", ignoreCase: true }),
	"grep -rniE",
	() => plain("grep", ["-rniE", "veryrare\\w+marker", "."]),
	"≤ 1.3x",
	"every file decoded and scanned",
);
await measure(
	"grep literal, ripgrep engine (limit 100)",
	() => ripgrepGrep({ pattern: tree.needle, literal: true }),
	"rg -nF",
	() => plain("rg", ["-nF", tree.needle, "."]),
	"≤ 1.05x",
);
await measure(
	"grep rare literal, ripgrep engine (whole tree)",
	() => ripgrepGrep({ pattern: tree.rareNeedle, literal: true }),
	"rg -nF",
	() => plain("rg", ["-nF", tree.rareNeedle, "."]),
	"≤ 1.05x",
);
await measure(
	"find **/*.ts (limit 20000)",
	() => find({ pattern: "**/*.ts", limit: 20_000 }),
	"find -name",
	() => plain("find", [".", "-name", "*.ts"]),
	"≤ 1.5x",
	".gitignore applied (find applies none)",
	{ runs: 15, warmup: 5 },
);
await measure(
	"ls 1000 entries (limit 1000)",
	() => ls({ path: "wide", limit: 1000 }),
	"readdir",
	() => readdir(tree.wideFolder),
	"≤ 2x",
	"",
	{ runs: 41, warmup: 10 },
);
await measure(
	"ls 1000 entries (limit 1000)",
	() => ls({ path: "wide", limit: 1000 }),
	"ls -a",
	() => plain("ls", ["-a", tree.wideFolder]),
	"",
	"",
	{ runs: 21, warmup: 3 },
);

printTable(
	`Search tools on ${tree.files} files (${ROUNDS} rounds of runs alternating with the floor's; ratio = median of the rounds' ratios)`,
	rows,
);
