import type { AgentToolCallOutcome } from "@gantry/agent";
import { errorText } from "@gantry/ai";
import type { JSValueHandle, QuickJS } from "quickjs-wasi";
import { rankTools } from "../tool-search/bm25.js";
import { DEFAULT_TOOL_SEARCH_LIMIT } from "../tool-search/tool-search-tool.js";
import { describeToolText } from "./description.js";
import { guestPreludeSource } from "./prelude-source.js";
import type { CodemodeToolHost, CodemodeToolInfo } from "./tool-host.js";
import { toolId } from "./tool-ids.js";

/** One tool call a script made, in the order the script made them. */
export interface CodemodeCallRecord {
	name: string;
	/** The arguments as the script passed them (after a JSON round trip). */
	arguments: unknown;
	/** `unfinished`: still running when the script ended (its signal was aborted). */
	status: "running" | "ok" | "error" | "unfinished";
	durationMs?: number;
	/** The error text of a failed call. */
	error?: string;
}

/** How the bridge reports what the script does. The sandbox implements it. */
export interface BridgeListener {
	output(text: string): void;
	done(output: string | undefined): void;
	fail(message: string, stack: string, context: string): void;
	/** Something was thrown out of the VM while the host drove it (interrupt, out of memory, a crash). */
	crash(error: unknown): void;
	isFinished(): boolean;
}

export interface BridgeOptions {
	/** The tools the script may call (already filtered). */
	tools: readonly CodemodeToolInfo[];
	host: CodemodeToolHost;
	/** Passed to every host call; aborted when the script ends. */
	signal: AbortSignal;
	listener: BridgeListener;
}

export interface Bridge {
	readonly calls: readonly CodemodeCallRecord[];
	/** Starts the script's async function and runs the VM until it waits on host calls. */
	start(main: JSValueHandle): void;
}

type Reply = { ok: true; value: unknown } | { ok: false; message: string };

/** The prelude compiled to bytecode by the first VM of the process: later VMs skip parsing it. */
let preludeBytecode: Uint8Array | undefined;

function evaluatePrelude(vm: QuickJS): JSValueHandle {
	preludeBytecode ??= vm.compile(guestPreludeSource(), "prelude.js");
	return vm.evalBytecode(preludeBytecode);
}

/**
 * Installs the script's globals in a fresh VM. Each `tools.<id>(args)` call returns a real promise
 * inside the VM; the host starts the call at once and, when it settles, resolves that promise (through
 * the prelude's `deliver`, one VM call instead of the several `vm.newPromise` costs) and drives the
 * VM's job queue — so `Promise.all` over two tools runs them together.
 * Host functions only ever read strings and numbers from the VM: no guest getter runs on the host side.
 * Throws when the VM cannot be set up (e.g. the memory limit is too small for the globals).
 */
export function installBridge(vm: QuickJS, options: BridgeOptions): Bridge {
	const { host, listener, signal } = options;
	const byName = new Map(options.tools.map((tool) => [tool.name, tool]));
	const calls: CodemodeCallRecord[] = [];

	const drive = () => {
		if (listener.isFinished()) return;
		try {
			vm.executePendingJobs();
		} catch (error) {
			listener.crash(error);
		}
	};
	/** The trampoline takes its own reference to a returned handle; ours is released right after. */
	const handOver = (handle: JSValueHandle) => {
		queueMicrotask(() => handle.dispose());
		return handle;
	};
	const replyHandle = (reply: Reply) => handOver(vm.newString(JSON.stringify(reply)));

	const hostCall = (indexHandle?: JSValueHandle, callIdHandle?: JSValueHandle, argsHandle?: JSValueHandle) => {
		const tool = indexHandle?.isNumber ? options.tools[indexHandle.toNumber()] : undefined;
		const callId = callIdHandle?.isNumber ? callIdHandle.toNumber() : -1;
		// Only the prelude calls this, with its own indexes; a string (not an Error) keeps host stacks out of the VM.
		if (tool === undefined) throw "Unknown tool.";
		const record: CodemodeCallRecord = { name: tool.name, arguments: parseArguments(argsHandle), status: "running" };
		calls.push(record);
		const startedAt = performance.now();
		void Promise.resolve()
			.then(() => {
				// A call the script fired without waiting for does not start once the script has ended.
				if (listener.isFinished()) throw new Error("The script ended before the call started.");
				return host.call(tool.name, record.arguments, signal);
			})
			.then((outcome) => replyForOutcome(tool, outcome))
			.catch((error: unknown): Reply => ({ ok: false, message: errorText(error) }))
			.then((reply) => {
				if (record.status !== "running") return;
				record.status = reply.ok ? "ok" : "error";
				record.durationMs = Math.round(performance.now() - startedAt);
				if (!reply.ok) record.error = reply.message;
				deliver(callId, reply);
			})
			.catch((error: unknown) => listener.crash(error));
		return vm.undefined;
	};
	/** Resolves the script's promise for one call and runs what it unblocks. */
	const deliver = (callId: number, reply: Reply) => {
		if (listener.isFinished()) return;
		try {
			vm.withScope(() => {
				vm.callFunction(deliverFunction, vm.undefined, vm.newNumber(callId), vm.newString(serializeReply(reply)));
			});
		} catch (error) {
			listener.crash(error);
			return;
		}
		drive();
	};
	const hostEmit = (textHandle?: JSValueHandle) => {
		listener.output(textHandle?.isString ? textHandle.toString() : "");
		return vm.undefined;
	};
	const hostSearch = (queryHandle?: JSValueHandle, limitHandle?: JSValueHandle) => {
		const query = queryHandle?.isString ? queryHandle.toString().trim() : "";
		if (query === "") return replyHandle({ ok: false, message: "searchTools needs a non-empty query." });
		let limit = DEFAULT_TOOL_SEARCH_LIMIT;
		if (limitHandle !== undefined && !limitHandle.isUndefined) {
			limit = limitHandle.isNumber ? limitHandle.toNumber() : Number.NaN;
			if (!Number.isInteger(limit) || limit < 1) {
				return replyHandle({ ok: false, message: "searchTools: limit must be a positive integer." });
			}
		}
		const matches = rankTools(options.tools, query, limit);
		return replyHandle({ ok: true, value: matches.map(({ name, description }) => ({ name, description })) });
	};
	const hostDescribe = (nameHandle?: JSValueHandle) => {
		const name = nameHandle?.isString ? nameHandle.toString() : "";
		const tool = byName.get(name);
		if (!tool) return replyHandle({ ok: false, message: `No callable tool named "${name}".` });
		return replyHandle({ ok: true, value: describeToolText(tool) });
	};
	const hostDone = (outputHandle?: JSValueHandle) => {
		listener.done(outputHandle?.isString ? outputHandle.toString() : undefined);
		return vm.undefined;
	};
	const hostFail = (message?: JSValueHandle, stack?: JSValueHandle, context?: JSValueHandle) => {
		const read = (handle?: JSValueHandle) => (handle?.isString ? handle.toString() : "");
		listener.fail(read(message), read(stack), read(context));
		return vm.undefined;
	};

	const [run, deliverFunction] = vm.withScope((scope) => {
		const setup = evaluatePrelude(vm);
		const functions = [hostCall, hostEmit, hostSearch, hostDescribe, hostDone, hostFail].map((callback, index) =>
			vm.newFunction(`host${index}`, callback),
		);
		const toolIds = options.tools.map((tool) => ({ name: tool.name, id: toolId(tool.name) }));
		const listed = options.tools
			.filter((tool) => tool.exposure !== "deferred")
			.map(({ name, description }) => ({ name, description }));
		const pair = vm.callFunction(
			setup,
			vm.undefined,
			...functions,
			vm.newString(JSON.stringify(toolIds)),
			vm.newString(JSON.stringify(listed)),
		);
		return [scope.escape(pair.getProp("0")), scope.escape(pair.getProp("1"))];
	});

	return {
		calls,
		start(main) {
			try {
				vm.callFunction(run, vm.undefined, main).dispose();
			} catch (error) {
				listener.crash(error);
				return;
			}
			drive();
		},
	};
}

function parseArguments(argsHandle: JSValueHandle | undefined): unknown {
	if (!argsHandle?.isString) return undefined;
	try {
		return JSON.parse(argsHandle.toString());
	} catch {
		return undefined;
	}
}

/**
 * What a script's `await tools.x()` gets: `structuredContent` when the tool declares an output schema
 * and the result carries it (even an error result), else the text blocks, else (error) a rejection.
 */
function replyForOutcome(tool: CodemodeToolInfo, outcome: AgentToolCallOutcome): Reply {
	const { result } = outcome;
	if (tool.outputSchema !== undefined && result.structuredContent !== undefined) {
		return { ok: true, value: result.structuredContent };
	}
	const text = result.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	if (!outcome.isError) return { ok: true, value: text };
	return { ok: false, message: text === "" ? `Tool ${tool.name} failed.` : text };
}

function serializeReply(reply: Reply): string {
	try {
		return JSON.stringify(reply);
	} catch (error) {
		return JSON.stringify({
			ok: false,
			message: `The tool's result cannot be passed to the script: ${errorText(error)}`,
		});
	}
}
