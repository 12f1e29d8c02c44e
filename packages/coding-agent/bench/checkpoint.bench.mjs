// Benchmark of a checkpoint: one snapshot of the bench workload tree (the tools bench's generator: 20,000
// files, about a sixth of them ignored by its .gitignore files) after a few files changed, through the
// local Workspace as the session takes it (the folder watched, so only the changed paths are looked at),
// beside `git status` on the same tree and a session that lists the folder with git each time (what a
// remote workspace does). Cases are interleaved round by round. Target: ≤ 100 ms median.
// Usage: pnpm run build && node bench/checkpoint.bench.mjs
import { execFile } from "node:child_process";
import { appendFile, mkdir, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { createLocalWorkspace } from "@gantry/tools";
import { printTable } from "../../tools/bench/harness.mjs";
import { ensureTree } from "../../tools/bench/workload.mjs";

const run = promisify(execFile);
const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const { ShadowRepository } = await import(
	pathToFileURL(join(packageDir, "dist", "checkpoints", "shadow-repository.js")).href
);

const base = join(tmpdir(), "gantry-checkpoint-bench");
const tree = join(base, "tree");
const home = join(base, "home");
await ensureTree(tree);
await rm(home, { recursive: true, force: true });
await mkdir(home, { recursive: true });
// The tree is a git repository too, so `git status` has something to compare with (the shadow ignores .git).
await run("git", ["init", "-q"], { cwd: tree });
await run("git", ["add", "-A"], { cwd: tree });
await run("git", ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "tree", "--allow-empty"], {
	cwd: tree,
});
const trackedFiles = (await run("git", ["ls-files"], { cwd: tree, maxBuffer: 64 * 1024 * 1024 })).stdout
	.split("\n")
	.filter((path) => path !== "");
const tracked = trackedFiles.length;

const workspace = createLocalWorkspace(tree);
const repository = await ShadowRepository.open({ workspace, home, sessionKey: "bench" });
const coldStart = performance.now();
await repository.snapshot("first");
const coldMs = performance.now() - coldStart;
// A second session that lists the folder with git each time: what a remote (SSH) workspace does.
const listing = await ShadowRepository.open({ workspace, home, sessionKey: "bench-listing", watch: false });
await listing.snapshot("first");

const changed = [trackedFiles[100], trackedFiles[Math.floor(tracked / 2)], trackedFiles[tracked - 100]];
let round = 0;
const touch = async () => {
	round++;
	for (const path of changed) await appendFile(join(tree, path), `// change ${round}\n`);
};
const timed = async (work) => {
	const start = performance.now();
	await work();
	return performance.now() - start;
};
// Interleaved: every round measures each case once, so a burst of load on this shared machine hits all alike.
const samples = { watched: [], unchanged: [], listed: [], status: [], ratio: [] };
const ways = new Set();
const loads = [];
for (let index = 0; index < 13; index++) {
	await touch();
	const watched = await timed(() => repository.snapshot(`round ${round}`));
	ways.add(repository.lastWay);
	const unchanged = await timed(() => repository.snapshot("same"));
	await touch();
	const listed = await timed(() => listing.snapshot(`round ${round}`));
	await touch();
	const status = await timed(() => run("git", ["status", "--porcelain"], { cwd: tree, maxBuffer: 64 * 1024 * 1024 }));
	// The first two rounds warm caches up.
	if (index < 2) continue;
	samples.watched.push(watched);
	samples.unchanged.push(unchanged);
	samples.listed.push(listed);
	samples.status.push(status);
	samples.ratio.push(watched / status);
	loads.push(loadavg()[0]);
}
repository.close();
listing.close();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const snapshotMs = median(samples.watched);
const statusMs = median(samples.status);
// The tree is this benchmark's own: its changes are undone, its repository kept for the next run.
await run("git", ["checkout", "-q", "--", "."], { cwd: tree });

const rows = printTable(`checkpoint of the bench tree (${tracked} files in git, 3 changed each round)`, [
	{
		case: "checkpoint, 3 files changed",
		gantryMs: snapshotMs,
		floor: "git status",
		floorMs: statusMs,
		ratio: median(samples.ratio),
		target: snapshotMs <= 100 ? "≤ 100 ms: met" : "≤ 100 ms: MISSED",
		note: `by ${[...ways].join(" and ")}`,
	},
	{ case: "checkpoint, nothing changed", gantryMs: median(samples.unchanged), floor: "git status", floorMs: statusMs },
	{
		case: "checkpoint listing with git (no watch, as over SSH)",
		gantryMs: median(samples.listed),
		floor: "git status",
		floorMs: statusMs,
	},
]);
console.log(`\nfirst checkpoint of the tree (every file hashed once, the watch set up): ${coldMs.toFixed(0)} ms`);
// Both columns are wall time: on a busy machine they grow together; compare the ratio.
console.log(
	`load average while measuring: ${median(loads).toFixed(1)} (median of the rounds; ${tracked} files; the target is for about 9,000)`,
);
void rows;
