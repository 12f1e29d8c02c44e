// Benchmark of the bash tool against plain spawns: 200 sequential echos, and a 50 MB output flood
// (time, peak memory growth measured in a fresh child process per case, and the size of the returned text).
// Run `npx tsc -p tsconfig.build.json` first: it imports the built code from ../dist.
import { execFile, spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createBashToolDefinition } from "../dist/shell/bash.js";
import { printTable } from "./harness.mjs";

const workDir = fileURLToPath(new URL("../.bench-work/bash/", import.meta.url));
const tempDir = join(workDir, "tmp");
const FLOOD_BYTES = 50_000_000;
const FLOOD = `yes "$(head -c 99 /dev/zero | tr '\\0' a)" | head -c ${FLOOD_BYTES}`;
const ECHO_CALLS = 200;
const TAIL_BYTES = 50 * 1024;
const MiB = 1024 * 1024;

const tool = createBashToolDefinition(workDir, { tempDir });

function waitForClose(child) {
	return new Promise((resolve, reject) => {
		child.once("error", reject);
		child.once("close", resolve);
	});
}

async function gantryRun(command) {
	const result = await tool.execute("bench", { command }, undefined, undefined, undefined);
	return result.content[0].text;
}

async function rawEcho() {
	const child = spawn("bash", ["-c", "echo hi"], { stdio: ["ignore", "pipe", "pipe"] });
	child.stdout.on("data", () => {});
	child.stderr.on("data", () => {});
	await waitForClose(child);
}

/**
 * The least a tool must do: spawn, save everything to a file, keep the last 50 KiB in memory. With
 * `ownGroup` the command gets its own process group (a new session), as a tool that can kill the whole
 * tree must do.
 */
async function floorKeepTailAndSave(ownGroup) {
	const file = createWriteStream(join(tempDir, `floor-${process.pid}-${performance.now()}.log`));
	const child = spawn("bash", ["-c", FLOOD], { detached: ownGroup, stdio: ["ignore", "pipe", "pipe"] });
	const tail = [];
	let tailBytes = 0;
	const onData = (chunk) => {
		file.write(chunk);
		tail.push(chunk);
		tailBytes += chunk.length;
		while (tailBytes - tail[0].length >= TAIL_BYTES) tailBytes -= tail.shift().length;
	};
	child.stdout.on("data", onData);
	child.stderr.on("data", onData);
	await waitForClose(child);
	await new Promise((resolve) => file.end(resolve));
	const text = Buffer.concat(tail).toString("utf8");
	return text.slice(text.indexOf("\n", text.length - TAIL_BYTES) + 1);
}

async function floorCatToDevNull() {
	await waitForClose(spawn("bash", ["-c", `${FLOOD} | cat > /dev/null`], { stdio: "ignore" }));
	return "";
}

const floodCases = {
	gantry: () => gantryRun(FLOOD),
	keepTail: () => floorKeepTailAndSave(true),
	keepTailSameGroup: () => floorKeepTailAndSave(false),
	cat: floorCatToDevNull,
};

async function clearTemp() {
	await rm(tempDir, { recursive: true, force: true });
	await mkdir(tempDir, { recursive: true });
}

/** Runs the cases in turns (order rotating each round) so machine noise hits all alike; median ms per case. */
async function interleavedMedians(cases, rounds, afterEach = async () => {}) {
	const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
	const names = Object.keys(cases);
	for (let round = 0; round < rounds; round++) {
		for (let index = 0; index < names.length; index++) {
			const name = names[(index + round) % names.length];
			const start = performance.now();
			await cases[name]();
			times[name].push(performance.now() - start);
			await afterEach();
		}
	}
	const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
	return Object.fromEntries(names.map((name) => [name, median(times[name])]));
}

/**
 * 200 sequential echo calls through the tool and 200 raw spawns, alternating call by call so load bursts on
 * this shared machine hit both alike; the median over `rounds` of each side's total.
 */
async function echoMedians(rounds) {
	const totals = { gantry: [], raw: [] };
	for (let round = 0; round < rounds; round++) {
		let gantry = 0;
		let raw = 0;
		for (let call = 0; call < ECHO_CALLS; call++) {
			let start = performance.now();
			await gantryRun("echo hi");
			gantry += performance.now() - start;
			start = performance.now();
			await rawEcho();
			raw += performance.now() - start;
		}
		totals.gantry.push(gantry);
		totals.raw.push(raw);
	}
	const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
	return { gantry: median(totals.gantry), raw: median(totals.raw) };
}

/** Child mode: run one flood case once and report peak RSS growth and the returned text size. */
async function measureMemory(name) {
	await clearTemp();
	const before = process.memoryUsage().rss;
	const text = await floodCases[name]();
	const peak = process.resourceUsage().maxRSS * 1024;
	console.log(JSON.stringify({ growth: peak - before, textBytes: Buffer.byteLength(text) }));
}

async function memoryOf(name) {
	const { stdout } = await promisify(execFile)(process.execPath, [fileURLToPath(import.meta.url), "--memory", name]);
	return JSON.parse(stdout);
}

async function main() {
	await clearTemp();
	const echo = await echoMedians(7);
	const flood = await interleavedMedians(floodCases, 9, clearTemp);
	const memory = {};
	for (const name of ["gantry", "keepTail", "cat"]) memory[name] = await memoryOf(name);
	await rm(tempDir, { recursive: true, force: true });

	const mb = (bytes) => `${(bytes / MiB).toFixed(1)} MB`;
	const floodNote = `peak RSS growth ${mb(memory.gantry.growth)} (target < 64 MB), returned ${(memory.gantry.textBytes / 1024).toFixed(1)} KiB (target < 51 KiB)`;
	printTable("bash", [
		{
			case: `${ECHO_CALLS} × echo, sequential`,
			gantryMs: echo.gantry,
			floor: "raw spawn bash -c",
			floorMs: echo.raw,
			target: "≤ 1.1x",
		},
		{
			case: "50 MB flood",
			gantryMs: flood.gantry,
			floor: "spawn (own process group) + keep tail + save file",
			floorMs: flood.keepTail,
			target: "≤ 1.5x",
			note: `${floodNote}; floor growth ${mb(memory.keepTail.growth)}`,
		},
		{
			case: "50 MB flood",
			gantryMs: flood.gantry,
			floor: "spawn (same process group) + keep tail + save file",
			floorMs: flood.keepTailSameGroup,
			note: "the tool needs its own group to kill the tree; a new session is scheduled apart under load",
		},
		{
			case: "50 MB flood",
			gantryMs: flood.gantry,
			floor: "cat > /dev/null",
			floorMs: flood.cat,
			note: `floor growth ${mb(memory.cat.growth)}`,
		},
	]);
}

if (process.argv[2] === "--memory") await measureMemory(process.argv[3]);
else await main();
