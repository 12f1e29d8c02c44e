// Measures what the tool-call pipeline costs per call: 10,000 no-op tool calls in batches of 10,
// each batch one agentLoop run against the scripted faux model. The faux model's own cost (streaming
// the same two responses without the loop) is measured separately and subtracted; the remainder is
// compared with calling `execute` directly in a plain async loop. Runs against dist (build first).
import { execFileSync } from "node:child_process";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { Type } from "@sinclair/typebox";

const { createFauxModel, stream, agentLoop } = await loadBuilt();

/** The benchmark measures the built code; say how to build it instead of failing with a resolve error. */
async function loadBuilt() {
	try {
		const ai = await import("@gantry/ai");
		const agent = await import("../dist/index.js");
		return { createFauxModel: ai.createFauxModel, stream: ai.stream, agentLoop: agent.agentLoop };
	} catch (error) {
		console.error(`Build first (from the repo root: pnpm --filter @gantry/agent... build): ${error.message}`);
		process.exit(1);
	}
}

const CALLS = 10_000;
const BATCH = 10;
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BATCHES = CALLS / BATCH;

const RESULT = { content: [{ type: "text", text: "ok" }] };
const noop = {
	name: "noop",
	label: "noop",
	description: "Does nothing",
	parameters: Type.Object({}),
	execute: async () => RESULT,
};
const lookup = {
	name: "lookup",
	label: "lookup",
	description: "Does nothing with three validated arguments",
	parameters: Type.Object({
		path: Type.String(),
		limit: Type.Optional(Type.Number()),
		mode: Type.Optional(Type.Union([Type.Literal("fast"), Type.Literal("full")])),
	}),
	execute: async () => RESULT,
};

const scenarios = [
	{ name: "no-op, parallel", tool: noop, args: {}, config: {}, target: "≤ 3 µs" },
	{ name: "no-op, sequential", tool: noop, args: {}, config: { toolExecution: "sequential" } },
	{
		name: "3-field schema + before/after hooks",
		tool: lookup,
		args: { path: "src/index.ts", limit: 20, mode: "fast" },
		config: { beforeToolCall: async () => undefined, afterToolCall: async () => undefined },
	},
	{
		name: '3-field schema, coerced ("20", null)',
		tool: lookup,
		args: { path: "src/index.ts", limit: "20", mode: null },
		config: {},
	},
];

function turns(scenario) {
	const toolCalls = Array.from({ length: BATCH }, (_, index) => ({
		id: `call_${index}`,
		name: scenario.tool.name,
		arguments: scenario.args,
	}));
	return [
		{ toolCalls, usage: { input: 1, output: 1 } },
		{ text: "ok", usage: { input: 1, output: 1 } },
	];
}

const prompt = { role: "user", content: "go", timestamp: 0 };

// CPU time of this process rather than wall time: on a shared machine other processes stretch wall time
// but not the work done here. On an idle machine the two agree for this single-threaded workload.
const clock =
	process.env.BENCH_CLOCK === "wall"
		? () => performance.now()
		: () => {
				const usage = process.cpuUsage();
				return (usage.user + usage.system) / 1000;
			};

async function loopBatches(scenario, batches) {
	const script = turns(scenario);
	const start = clock();
	for (let batch = 0; batch < batches; batch++) {
		const model = createFauxModel(script);
		const events = agentLoop([prompt], { messages: [], tools: [scenario.tool] }, { model, ...scenario.config });
		for await (const _event of events);
	}
	return clock() - start;
}

/** The same two requests, streamed straight from the faux model, with contexts of the same size. */
async function modelOnlyBatches(scenario, requests, batches) {
	const script = turns(scenario);
	const start = clock();
	for (let batch = 0; batch < batches; batch++) {
		const model = createFauxModel(script);
		for (const context of requests) {
			const response = stream(model, context);
			for await (const _event of response);
			await response.result();
		}
	}
	return clock() - start;
}

async function directCalls(tool, args, calls) {
	const start = clock();
	for (let call = 0; call < calls; call++) await tool.execute(`call_${call}`, args, undefined, undefined);
	return clock() - start;
}

async function requestsOf(scenario) {
	const model = createFauxModel(turns(scenario));
	const events = agentLoop([prompt], { messages: [], tools: [scenario.tool] }, { model, ...scenario.config });
	for await (const _event of events);
	return model.calls;
}

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * One run: all 10,000 calls, with the loop, the model alone and the direct calls interleaved in small
 * slices, so load from other processes on a shared machine falls on all three alike.
 */
async function timeRun(scenario, requests) {
	const slices = 20;
	let loopMs = 0;
	let modelMs = 0;
	let directMs = 0;
	for (let slice = 0; slice < slices; slice++) {
		loopMs += await loopBatches(scenario, BATCHES / slices);
		modelMs += await modelOnlyBatches(scenario, requests, BATCHES / slices);
		directMs += await directCalls(scenario.tool, scenario.args, CALLS / slices);
	}
	return { loopMs, modelMs, directMs };
}

async function measure(scenario) {
	const requests = await requestsOf(scenario);
	// Warm up every path so the JIT has settled before anything is timed.
	for (let round = 0; round < 2; round++) await timeRun(scenario, requests);
	const perCall = [];
	const overhead = [];
	const ratio = [];
	const model = [];
	const direct = [];
	for (let run = 0; run < RUNS; run++) {
		const { loopMs, modelMs, directMs } = await timeRun(scenario, requests);
		const loopPerCall = ((loopMs - modelMs) * 1000) / CALLS;
		const directPerCall = (directMs * 1000) / CALLS;
		perCall.push(loopPerCall);
		overhead.push(loopPerCall - directPerCall);
		ratio.push(loopPerCall / directPerCall);
		model.push((modelMs * 1000) / BATCHES);
		direct.push(directPerCall);
	}
	return {
		scenario: scenario.name,
		direct: median(direct),
		perCall: median(perCall),
		overhead: median(overhead),
		ratio: median(ratio),
		model: median(model),
	};
}

// Each scenario runs in a fresh process so one scenario's garbage and JIT state cannot tilt the next.
const only = process.argv[2];
if (only !== undefined) {
	process.stdout.write(JSON.stringify(await measure(scenarios[Number(only)])));
	process.exit(0);
}
const self = fileURLToPath(import.meta.url);
// Rounds over all scenarios, each scenario in its own process per round, then the median per scenario:
// a busy spell of the machine then lands on one round of every scenario instead of on one scenario.
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const samples = scenarios.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
	for (const [index] of scenarios.entries()) {
		const output = execFileSync(process.execPath, [self, String(index)], { encoding: "utf8", env: process.env });
		samples[index].push(JSON.parse(output));
	}
}
const rows = samples.map((runs) => {
	const pick = (key) => median(runs.map((run) => run[key]));
	return {
		scenario: runs[0].scenario,
		target: scenarios[samples.indexOf(runs)].target ?? "",
		direct: pick("direct"),
		perCall: pick("perCall"),
		overhead: pick("overhead"),
		ratio: pick("ratio"),
		model: pick("model"),
	};
});

const format = (value, digits = 2) => value.toFixed(digits);
/** "met" or "MISSED" for a target written `≤ 3 µs` (per call, through the loop); "" without one. */
function status(target, perCall) {
	const ceiling = /^≤\s*([0-9.]+)\s*µs$/.exec(target);
	if (ceiling === null) return "";
	return perCall <= Number(ceiling[1]) ? "met" : "MISSED";
}
console.log(
	`\n@gantry/agent pipeline benchmark — ${CALLS} tool calls in batches of ${BATCH}, medians of ${ROUNDS} × ${RUNS} runs`,
);
console.log(
	`node ${process.version}, ${process.platform}/${process.arch}, ${process.env.BENCH_CLOCK === "wall" ? "wall" : "CPU"} time, load average ${loadavg()
		.map((value) => value.toFixed(2))
		.join(" ")} at the end\n`,
);
console.log(
	"| scenario | direct execute µs/call | through the loop µs/call | pipeline overhead µs/call | ratio to direct | faux model µs/batch (excluded) | target (through the loop) | status |",
);
console.log("|---|---:|---:|---:|---:|---:|---|---|");
for (const row of rows) {
	console.log(
		`| ${row.scenario} | ${format(row.direct)} | ${format(row.perCall)} | ${format(row.overhead)} | ${format(row.ratio, 1)}× | ${format(row.model, 0)} | ${row.target} | ${status(row.target, row.perCall)} |`,
	);
}
