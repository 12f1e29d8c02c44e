// Benchmark of the OS sandbox: a sandboxed `echo` against bash alone and against bubblewrap alone, with no
// host allowed and with an allow list, measured in the same run (cases interleaved, medians), and the
// set-up of a sandbox in a fresh process (the library's import and sandbox-runtime's load and start included;
// @gantry/tools, which a session has loaded already, is imported before the clock starts).
//
// With an allow list, `createSandboxedWorkspace` returns once the filesystem sandbox is ready and bubblewrap's
// probe passed; sandbox-runtime's manager, its proxy and bridges, the workspace's relays and its networked
// profile start after that, in the background, and the first command waits for them. So two figures are
// shown for it: "set-up, an allow list (workspace returned)", which the ≤ 300 ms target is about, and
// "allow list: until its network is ready" (measured from the same start to the moment a command could
// start: `sandboxCommand` resolved), which has no target; the difference is what a first command issued at
// once would wait.
// Run `pnpm run build` first: it imports the built code from ../dist.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { createLocalWorkspace } from "@gantry/tools";
import { createSandboxedWorkspace } from "../dist/index.js";

const RUNS = Number(process.env.SANDBOX_BENCH_RUNS ?? 40);
const SETUP_RUNS = Number(process.env.SANDBOX_BENCH_SETUP_RUNS ?? 7);

const root = await realpath(await mkdtemp(join(tmpdir(), "gantry-sandbox-bench-")));
const project = join(root, "project");
const temp = join(root, "temp");
await Promise.all([mkdir(project), mkdir(temp)]);

const local = createLocalWorkspace(project, { tempDir: temp });
const bwrap = await local.processes.which("bwrap");
if (!bwrap) {
	console.log("bubblewrap is not installed: the sandbox benchmark needs it (apt-get install bubblewrap socat).");
	process.exit(0);
}
const noNetwork = await createSandboxedWorkspace(local, { enabled: true });
const allowList = await createSandboxedWorkspace(local, {
	enabled: true,
	network: { allowedDomains: ["registry.npmjs.org"] },
});
for (const workspace of [noNetwork, allowList]) {
	if (!workspace.sandbox.active) throw new Error(`the sandbox did not start: ${workspace.sandbox.reason}`);
}

/** One spawn through a workspace's processes, output read, as the bash tool does. */
async function run(processes, file, args) {
	let output = "";
	const status = await processes.spawn(file, args, {
		cwd: project,
		onStdout: (data) => {
			output += data;
		},
		onStderr: (data) => {
			output += data;
		},
	});
	if (status.exitCode !== 0 || output !== "hi\n") throw new Error(`${file} failed: ${status.exitCode} ${output}`);
}

const cases = {
	bash: () => run(local.processes, "bash", ["-c", "echo hi"]),
	bwrap: () => run(local.processes, bwrap, ["--ro-bind", "/", "/", "--unshare-net", "bash", "-c", "echo hi"]),
	noNetwork: () => run(noNetwork.processes, "bash", ["-c", "echo hi"]),
	allowList: () => run(allowList.processes, "bash", ["-c", "echo hi"]),
};

const loadBefore = loadavg();
const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (const fn of Object.values(cases)) await fn();
for (let index = 0; index < RUNS; index++) {
	for (const [name, fn] of Object.entries(cases)) {
		const start = performance.now();
		await fn();
		times[name].push(performance.now() - start);
	}
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, median(values)]));

await Promise.all([noNetwork.close(), allowList.close()]);

/**
 * Set-up of one sandbox in a fresh Node process, as a session makes it: @gantry/sandbox's import,
 * sandbox-runtime's load and start, the bubblewrap probe and the profile (@gantry/tools is loaded first).
 */
function coldSetupMs(settings) {
	const script = `
		// A session has @gantry/tools loaded already: its import is not the sandbox's set-up.
		const { createLocalWorkspace } = await import("@gantry/tools");
		const started = performance.now();
		const { createSandboxedWorkspace } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
		const workspace = await createSandboxedWorkspace(createLocalWorkspace(${JSON.stringify(project)}, { tempDir: ${JSON.stringify(temp)} }), ${JSON.stringify(settings)});
		const elapsed = performance.now() - started;
		if (!workspace.sandbox.active) throw new Error(workspace.sandbox.reason);
		// Resolves once a command could start: with an allow list, its network is up and its profile built.
		(await workspace.sandboxCommand("true", [])).release();
		const ready = performance.now() - started;
		await workspace.close();
		console.log(JSON.stringify({ elapsed, ready }));
		process.exit(0);
	`;
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			["--input-type=module", "-e", script],
			{ cwd: fileURLToPath(new URL("..", import.meta.url)) },
			(error, stdout, stderr) =>
				error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(JSON.parse(stdout.trim())),
		);
	});
}
const setups = { noNetwork: [], allowList: [], allowListReady: [] };
for (let index = 0; index < SETUP_RUNS; index++) {
	setups.noNetwork.push((await coldSetupMs({ enabled: true })).elapsed);
	const allowList = await coldSetupMs({ enabled: true, network: { allowedDomains: ["registry.npmjs.org"] } });
	setups.allowList.push(allowList.elapsed);
	setups.allowListReady.push(allowList.ready);
}
await rm(root, { recursive: true, force: true });

const met = (value, limit) => (value <= limit ? "met" : "missed");
const setupNoNetwork = median(setups.noNetwork);
const setupAllowList = median(setups.allowList);
const allowListReady = median(setups.allowListReady);
const rows = [
	["bash -c echo (no sandbox)", ms.bash, "", "", ""],
	["bwrap --ro-bind / / --unshare-net bash -c echo", ms.bwrap, "", "", ""],
	[
		"sandboxed echo, no host allowed",
		ms.noNetwork,
		`${(ms.noNetwork / ms.bwrap).toFixed(2)}x bwrap`,
		"≤ 1.5x bwrap",
		met(ms.noNetwork / ms.bwrap, 1.5),
	],
	[
		"sandboxed echo, an allow list",
		ms.allowList,
		`+${(ms.allowList - ms.bash).toFixed(1)} ms over bash`,
		"≤ +20 ms",
		met(ms.allowList - ms.bash, 20),
	],
	// What the network plumbing costs on its own, and the sandbox against its own floor: the +20 ms above holds
	// bubblewrap's start too, which grows with the machine's load as every process start does.
	["(allow list) against no host allowed", ms.allowList, `+${(ms.allowList - ms.noNetwork).toFixed(1)} ms`, "", ""],
	["(allow list) against bwrap", ms.allowList, `${(ms.allowList / ms.bwrap).toFixed(2)}x bwrap`, "", ""],
	["set-up, no host allowed (fresh process)", setupNoNetwork, "", "≤ 300 ms", met(setupNoNetwork, 300)],
	["set-up, an allow list (workspace returned)", setupAllowList, "", "≤ 300 ms", met(setupAllowList, 300)],
	["allow list: until its network is ready", allowListReady, "", "", ""],
];
const header = ["case", "median ms", "against the floor", "target", ""];
const lines = rows.map(([name, value, against, target, verdict]) => [name, value.toFixed(2), against, target, verdict]);
const widths = header.map((cell, column) => Math.max(cell.length, ...lines.map((line) => String(line[column]).length)));
const format = (cells) => `| ${cells.map((cell, column) => String(cell).padEnd(widths[column])).join(" | ")} |`;
const load = (values) => values.map((value) => value.toFixed(2)).join(" ");
console.log(`\n### @gantry/sandbox: ${RUNS} interleaved runs per command case, ${SETUP_RUNS} set-ups\n`);
console.log(
	`load average ${load(loadBefore)} at the start, ${load(loadavg())} at the end (${availableParallelism()} cores)\n`,
);
console.log(format(header));
console.log(`|${widths.map((width) => "-".repeat(width + 2)).join("|")}|`);
for (const line of lines) console.log(format(line));
