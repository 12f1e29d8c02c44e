// Benchmark of the codemode sandbox: cold start (module compile + first VM), warm start (a VM from the
// cached module), and the cost of nested tool calls made from one script beyond the host's own cost.
// Runs against dist/ when it is built, else against the sources transpiled into .bench-work/.
// Usage: node bench/codemode.bench.mjs   (targets: warm start < 5 ms, < 100 µs per nested call)
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));

/** The sources the codemode module is built from, relative to src/. */
function sourceFiles() {
	const files = ["errors.ts"];
	for (const folder of ["codemode", "tool-search"]) {
		for (const name of readdirSync(join(packageDir, "src", folder)))
			if (name.endsWith(".ts")) files.push(`${folder}/${name}`);
	}
	return files;
}

/** Whether every source file is older than its built counterpart in dist/. */
function isUpToDate() {
	return sourceFiles().every((file) => {
		const target = join(packageDir, "dist", file.replace(/\.ts$/, ".js"));
		return existsSync(target) && statSync(target).mtimeMs >= statSync(join(packageDir, "src", file)).mtimeMs;
	});
}

/** Loads the built codemode module, or transpiles its sources to plain JS in .bench-work/. */
async function loadCodemode() {
	const built = join(packageDir, "dist", "codemode", "index.js");
	if (existsSync(built) && isUpToDate()) return { module: await import(pathToFileURL(built).href), from: "dist" };
	const ts = createRequire(import.meta.url)("typescript");
	const outDir = join(packageDir, ".bench-work");
	for (const file of sourceFiles()) {
		const output = ts.transpileModule(readFileSync(join(packageDir, "src", file), "utf8"), {
			compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023, verbatimModuleSyntax: true },
		});
		const target = join(outDir, file.replace(/\.ts$/, ".js"));
		mkdirSync(dirname(target), { recursive: true });
		writeFileSync(target, output.outputText);
	}
	return {
		module: await import(pathToFileURL(join(outDir, "codemode", "index.js")).href),
		from: "sources (transpiled)",
	};
}

function median(values) {
	const sorted = [...values].sort((left, right) => left - right);
	return sorted[Math.floor(sorted.length / 2)];
}

/** Median wall time and median CPU time (this process, all threads) of `runs` runs, in ms. */
async function measure(fn, runs) {
	const wall = [];
	const cpu = [];
	for (let index = 0; index < runs; index++) {
		const cpuStart = process.cpuUsage();
		const start = performance.now();
		await fn();
		wall.push(performance.now() - start);
		const used = process.cpuUsage(cpuStart);
		cpu.push((used.user + used.system) / 1000);
	}
	return { wall: median(wall), cpu: median(cpu) };
}

const noopOutcome = (name, args) => ({
	toolCall: { type: "toolCall", id: "bench", name, arguments: args },
	result: { content: [{ type: "text", text: "" }] },
	isError: false,
});
const host = {
	list: () => [
		{
			name: "noop",
			description: "Does nothing.",
			parameters: { type: "object", properties: {} },
			exposure: "codemode",
		},
	],
	call: async (name, args) => noopOutcome(name, args),
};

const { module: codemode, from } = await loadCodemode();
const { QuickJS } = await import("quickjs-wasi");
const tempDir = await mkdtemp(join(tmpdir(), "gantry-codemode-bench-"));
const run = (code) => codemode.runCodemodeScript({ code, tools: host, tempDir });

// Cold: this process has not compiled the module yet.
const cold = {};
cold.compile = await measure(async () => {
	await codemode.loadQuickJsModule();
}, 1);
const wasm = await codemode.loadQuickJsModule();
const createVm = async () => (await QuickJS.create({ wasm, memoryLimit: 64 * 1024 * 1024 })).dispose();
cold.vm = await measure(createVm, 1);
let first;
cold.script = await measure(async () => {
	first = await run("return 1;");
}, 1);
if (!first.ok) throw new Error(`the first script failed: ${first.text}`);

// Warm: let V8 tier up, then take medians.
for (let index = 0; index < 30; index++) await createVm();
for (let index = 0; index < 10; index++) await run("return 1;");
const warmVm = await measure(createVm, 50);
const warmScript = await measure(() => run("return 1;"), 30);

// Nested calls: 100 awaited one after the other, and 100 at once, minus an empty script and the host's own cost.
const sequential = "for (let index = 0; index < 100; index++) await tools.noop({});";
const parallel = "await Promise.all(Array.from({ length: 100 }, () => tools.noop({})));";
for (let index = 0; index < 40; index++) {
	await run(sequential);
	await run(parallel);
}
const check = await run(sequential);
if (!check.ok || check.calls.length !== 100) throw new Error(`the nested-call script failed: ${check.text}`);
const hostOwn = await measure(async () => {
	for (let index = 0; index < 100; index++) await host.call("noop", {});
}, 30);
const sequentialRun = await measure(() => run(sequential), 30);
const parallelRun = await measure(() => run(parallel), 30);
const perCall = (total, kind) => ((total[kind] - warmScript[kind] - hostOwn[kind]) / 100) * 1000;

await rm(tempDir, { recursive: true, force: true });

const ms = (value) => `${value.toFixed(2)} ms`;
const us = (value) => `${value.toFixed(1)} µs`;
const verdict = (value, limit) => (value < limit ? "met" : "MISSED");
const rows = [
	["cold: compile the WebAssembly module (once per process)", ms(cold.compile.wall), ms(cold.compile.cpu), ""],
	["cold: first VM from the compiled module", ms(cold.vm.wall), ms(cold.vm.cpu), ""],
	["cold: first whole script (`return 1`)", ms(cold.script.wall), ms(cold.script.cpu), ""],
	[
		"warm: VM creation + dispose (median of 50)",
		ms(warmVm.wall),
		ms(warmVm.cpu),
		`< 5 ms: wall ${verdict(warmVm.wall, 5)}, cpu ${verdict(warmVm.cpu, 5)}`,
	],
	["warm: whole script `return 1` (median of 30)", ms(warmScript.wall), ms(warmScript.cpu), ""],
	["100 sequential no-op nested calls, whole script", ms(sequentialRun.wall), ms(sequentialRun.cpu), ""],
	["100 parallel no-op nested calls, whole script", ms(parallelRun.wall), ms(parallelRun.cpu), ""],
	["host's own cost of 100 no-op calls", ms(hostOwn.wall), ms(hostOwn.cpu), ""],
	[
		"per sequential nested call, beyond the host's cost",
		us(perCall(sequentialRun, "wall")),
		us(perCall(sequentialRun, "cpu")),
		`< 100 µs: wall ${verdict(perCall(sequentialRun, "wall"), 100)}, cpu ${verdict(perCall(sequentialRun, "cpu"), 100)}`,
	],
	[
		"per parallel nested call, beyond the host's cost",
		us(perCall(parallelRun, "wall")),
		us(perCall(parallelRun, "cpu")),
		"",
	],
];
const header = ["case", "wall (median)", "cpu (median)", "target"];
const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => row[column].length)));
const line = (cells) => `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(" | ")} |`;
const load = (await import("node:os")).loadavg()[0].toFixed(1);
console.log(`\n### codemode sandbox (${from}, node ${process.version}, load average ${load})\n`);
console.log(line(header));
console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
for (const row of rows) console.log(line(row));
