// What an MCP tool costs: one call's round trip over stdio to a no-op server, through the same
// ToolDefinition the session runs (median of many calls), next to the same no-op tool in-process; and
// what a 100-tool server adds to every model request when its tools are direct vs deferred (the
// default). Runs against dist (build first: pnpm --filter @gantry/mcp... build).
import { fileURLToPath } from "node:url";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { defineTool, ExtensionRunner, Type } from "@gantry/extensions";
import { createMcpExtension } from "@gantry/mcp";

const SERVER = fileURLToPath(new URL("./noop-server.mjs", import.meta.url));
const CALLS = Number(process.env.BENCH_CALLS ?? 500);
const WARMUP = 50;

function median(values) {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

async function timeCalls(execute) {
	for (let index = 0; index < WARMUP; index++) await execute(index);
	const times = [];
	for (let index = 0; index < CALLS; index++) {
		const start = performance.now();
		await execute(index);
		times.push(performance.now() - start);
	}
	return median(times);
}

async function roundTrip() {
	const mcp = createMcpExtension({ mcpServers: { bench: { command: process.execPath, args: [SERVER] } } });
	const runner = new ExtensionRunner({ cwd: process.cwd() });
	await runner.add(mcp, "mcp");
	await mcp.settled(15_000);
	const tool = runner.getAllRegisteredTools().find((definition) => definition.name === "mcp__bench__noop");
	if (tool === undefined) throw new Error("the bench server's noop tool did not register");
	const remote = await timeCalls((index) => tool.execute(`call_${index}`, {}, undefined, undefined, undefined));
	await mcp.close();

	const local = defineTool({
		name: "noop",
		label: "noop",
		description: "Does nothing.",
		parameters: Type.Object({}),
		execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
	});
	const inProcess = await timeCalls((index) => local.execute(`call_${index}`, {}, undefined, undefined, undefined));
	return { remote, inProcess };
}

async function declaredBytes(exposure) {
	const mcp = createMcpExtension({
		mcpServers: { tracker: { command: process.execPath, args: [SERVER, "100"], exposure } },
	});
	const session = await createAgentSession({
		cwd: process.cwd(),
		model: createFauxModel([]),
		extensions: [mcp],
		...(exposure === "codemode" ? { tools: ["*", "codemode"] } : {}),
	});
	await mcp.settled(15_000);
	session.refreshTools();
	const declared = session.getDeclaredTools();
	const bytes = Buffer.byteLength(JSON.stringify(declared));
	const codemode = declared.find((tool) => tool.name === "codemode");
	const listing = codemode === undefined ? 0 : Buffer.byteLength(JSON.stringify(codemode));
	const mcpTools = declared.filter((tool) => tool.name.startsWith("mcp__")).length;
	await session.dispose();
	await mcp.close();
	const mcpBytes = Buffer.byteLength(JSON.stringify(declared.filter((tool) => tool.name.startsWith("mcp__"))));
	return { bytes, mcpTools, tools: declared.length, listing, mcpBytes };
}

const { remote, inProcess } = await roundTrip();
const direct = await declaredBytes("direct");
const deferred = await declaredBytes("deferred");
const codemode = await declaredBytes("codemode");

console.log(
	`\n@gantry/mcp benchmark — ${CALLS} calls (median), node ${process.version}, ${process.platform}/${process.arch}\n`,
);
console.log("| case | median | vs in-process |");
console.log("|---|---:|---:|");
console.log(
	`| MCP tool call over stdio, no-op server | ${(remote * 1000).toFixed(0)} µs | ${(remote / inProcess).toFixed(0)}× |`,
);
console.log(`| the same no-op tool in-process | ${(inProcess * 1000).toFixed(1)} µs | 1× |`);
console.log("\n| 100-tool server | tools declared | MCP tools declared | declared payload |");
console.log("|---|---:|---:|---:|");
console.log(`| exposure "direct" | ${direct.tools} | ${direct.mcpTools} | ${(direct.bytes / 1024).toFixed(1)} KiB |`);
console.log(
	`| exposure "deferred" (default) | ${deferred.tools} | ${deferred.mcpTools} | ${(deferred.bytes / 1024).toFixed(1)} KiB |`,
);
console.log(
	`| exposure "codemode" (codemode on) | ${codemode.tools} | ${codemode.mcpTools} | ${(codemode.bytes / 1024).toFixed(1)} KiB |`,
);
console.log(
	`\nThe codemode listing of the 100 tools is ${(codemode.listing / 1024).toFixed(1)} KiB, ${((codemode.listing / direct.mcpBytes) * 100).toFixed(1)} % of declaring them directly (${(direct.mcpBytes / 1024).toFixed(1)} KiB).`,
);
