import { errorText } from "@gantry/ai";
import { createLocalWorkspace } from "@gantry/tools";
import { JSException, MAX_STACK_SIZE, QuickJS } from "quickjs-wasi";
import { type CodemodeCallRecord, installBridge } from "./bridge.js";
import { parseOptionsLine } from "./options-line.js";
import { type CapturedOutput, CHARS_PER_TOKEN, OutputCapture, type OutputFileHost } from "./output.js";
import { completedText, failedText, notStartedText } from "./result-text.js";
import { type CodemodeToolHost, type CodemodeToolInfo, scriptCallableTools } from "./tool-host.js";
import { loadQuickJsModule } from "./wasm-module.js";

export const DEFAULT_CODEMODE_TIMEOUT_MS = 30_000;
export const DEFAULT_CODEMODE_MEMORY_LIMIT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_CODEMODE_MAX_OUTPUT_TOKENS = 10_000;
/** An options line may ask for up to this much time (or the configured default, if larger). */
export const MAX_SCRIPT_TIMEOUT_MS = 10 * 60 * 1000;
/** An options line may ask for up to this many output tokens (or the configured default, if larger). */
export const MAX_SCRIPT_OUTPUT_TOKENS = 100_000;

export interface RunCodemodeScriptOptions {
	/** The body of an async function; an optional first line `// @options: {...}` adjusts limits. */
	code: string;
	/** The callable tools and how to call them. */
	tools: CodemodeToolHost;
	/** Run time limit, counted from the script's start and including time spent awaiting tools. Default 30 s. */
	timeoutMs?: number;
	/** Memory limit of the VM: every allocation counts (objects, arrays, typed arrays, strings). Default 64 MiB. */
	memoryLimitBytes?: number;
	/** Output budget in tokens (4 characters each); longer output keeps its head and tail. Default 10,000. */
	maxOutputTokens?: number;
	/** Folder for the full-output file, a path on `workspace` (created when output overflows). */
	tempDir: string;
	/**
	 * The workspace the full-output file is written on: the session's (`AgentSession.workspace`), so the
	 * path the result names is one the model's `read` and `bash` reach. Default: this machine.
	 */
	workspace?: OutputFileHost;
	/** Stops the script (a `Script aborted` failure) and aborts its running tool calls. */
	signal?: AbortSignal;
}

export interface CodemodeScriptResult {
	ok: boolean;
	/** The result content text: first line `Script completed` or `Script failed`. */
	text: string;
	/** The output as shown (head and tail when it went over the budget). */
	output: string;
	/** The tool calls the script made, in order. */
	calls: CodemodeCallRecord[];
	/** What stopped a failed script (`Script timed out after …`, an exception's message and stack, …). */
	error?: string;
	/** The file with the full output, when it went over the budget. */
	fullOutputPath?: string;
	/** False when the script never ran (empty code, bad options line, aborted before start). */
	started: boolean;
}

/** The script is wrapped on its own first line, so line numbers in stacks match the code. */
const SCRIPT_PREFIX = "(async function () {";

type Ending =
	| { kind: "completed" }
	| { kind: "exception"; message: string; stack: string; context: string }
	| { kind: "timeout" }
	| { kind: "out-of-memory" }
	| { kind: "aborted" }
	| { kind: "crash"; message: string };

/**
 * Runs one script in a fresh QuickJS VM (disposed afterwards, whatever happened) and never throws:
 * every failure — a bad options line, a syntax error, an exception, the time or memory limit, an
 * abort — is a result with `ok: false` that keeps the partial output and lists the calls made.
 */
export async function runCodemodeScript(options: RunCodemodeScriptOptions): Promise<CodemodeScriptResult> {
	const defaultTimeout = options.timeoutMs ?? DEFAULT_CODEMODE_TIMEOUT_MS;
	const defaultTokens = options.maxOutputTokens ?? DEFAULT_CODEMODE_MAX_OUTPUT_TOKENS;
	const memoryLimitBytes = options.memoryLimitBytes ?? DEFAULT_CODEMODE_MEMORY_LIMIT_BYTES;
	if (options.code.trim() === "") return notStarted("The script is empty: send JavaScript in `code`.");
	const parsed = parseOptionsLine(options.code, {
		maxTimeoutMs: Math.max(MAX_SCRIPT_TIMEOUT_MS, defaultTimeout),
		maxOutputTokens: Math.max(MAX_SCRIPT_OUTPUT_TOKENS, defaultTokens),
	});
	if (!parsed.ok) return notStarted(parsed.problem);
	const timeoutMs = parsed.options.timeoutMs ?? defaultTimeout;
	const maxOutputTokens = parsed.options.maxOutputTokens ?? defaultTokens;
	if (options.signal?.aborted) return notStarted("Script aborted before it started.");

	let tools: CodemodeToolInfo[];
	let vm: QuickJS;
	let deadline = Number.POSITIVE_INFINITY;
	let interrupted = false;
	try {
		tools = scriptCallableTools(options.tools.list());
		vm = await QuickJS.create({
			wasm: await loadQuickJsModule(),
			memoryLimit: memoryLimitBytes,
			// With QuickJS's own stack guard, deep recursion is a RangeError the script can catch.
			maxStackSize: MAX_STACK_SIZE,
			interruptHandler: () => {
				if (Date.now() < deadline) return false;
				interrupted = true;
				return true;
			},
		});
	} catch (error) {
		return notStarted(`The sandbox could not start: ${errorText(error)}`);
	}

	const capture = new OutputCapture({
		maxOutputTokens,
		tempDir: options.tempDir,
		host: options.workspace ?? createLocalWorkspace(options.tempDir),
	});
	const controller = new AbortController();
	let ending: Ending | undefined;
	let reportEnding: (value: Ending) => void = () => {};
	const ended = new Promise<Ending>((resolve) => {
		reportEnding = resolve;
	});
	const finish = (value: Ending) => {
		if (ending !== undefined) return;
		// Once the deadline interrupted the VM, the script ran out of time, whatever it did next (an
		// interrupted `Error.prepareStackTrace` still lets the error it was building be thrown).
		ending = interrupted && value.kind !== "aborted" ? { kind: "timeout" } : value;
		reportEnding(ending);
	};
	const classify = (error: unknown): Ending => {
		if (interrupted) return { kind: "timeout" };
		if (error instanceof JSException || (error instanceof Error && error.name === "InternalError")) {
			if (/out of memory/i.test(error.message)) return { kind: "out-of-memory" };
			return { kind: "exception", message: `${error.name}: ${error.message}`, stack: error.stack ?? "", context: "" };
		}
		if (error instanceof RangeError && /call stack/i.test(error.message)) {
			// The host's own stack ran out inside the VM: still the script's doing.
			return {
				kind: "exception",
				message: `RangeError: ${error.message} (the script recursed too deeply)`,
				stack: "",
				context: "",
			};
		}
		if (error instanceof Error) return { kind: "crash", message: error.message };
		return { kind: "crash", message: String(error) };
	};
	const onAbort = () => finish({ kind: "aborted" });
	let timer: NodeJS.Timeout | undefined;
	let calls: readonly CodemodeCallRecord[] = [];
	try {
		const bridge = installBridge(vm, {
			tools,
			host: options.tools,
			signal: controller.signal,
			listener: {
				output: (text) => {
					if (ending === undefined) capture.append(text);
				},
				done: (text) => {
					if (ending === undefined && text !== undefined) capture.append(text);
					finish({ kind: "completed" });
				},
				fail: (message, stack, context) => finish({ kind: "exception", message, stack, context }),
				crash: (error) => finish(classify(error)),
				isFinished: () => ending !== undefined,
			},
		});
		calls = bridge.calls;
		deadline = Date.now() + timeoutMs;
		timer = setTimeout(() => finish({ kind: "timeout" }), timeoutMs);
		options.signal?.addEventListener("abort", onAbort, { once: true });
		if (options.signal?.aborted) onAbort();
		let main: ReturnType<QuickJS["evalCode"]> | undefined;
		try {
			main = vm.evalCode(`${SCRIPT_PREFIX}${options.code}\n})`, "script.js");
		} catch (error) {
			finish(classify(error));
		}
		if (main !== undefined) {
			bridge.start(main);
			main.dispose();
		}
		await ended;
	} catch (error) {
		finish(classify(error));
	} finally {
		clearTimeout(timer);
		options.signal?.removeEventListener("abort", onAbort);
		const running = calls.filter((call) => call.status === "running");
		for (const call of running) call.status = "unfinished";
		if (running.length > 0) controller.abort();
		vm.dispose();
	}
	// The full-output file is complete (and closed) before the result names it.
	const output = await capture.finish(options.signal);
	return buildResult(ending ?? { kind: "crash", message: "the script ended without a result" }, output, [...calls], {
		timeoutMs,
		memoryLimitBytes,
		maxOutputChars: Math.max(1, maxOutputTokens) * CHARS_PER_TOKEN,
	});
}

function buildResult(
	ending: Ending,
	output: CapturedOutput,
	calls: CodemodeCallRecord[],
	limits: { timeoutMs: number; memoryLimitBytes: number; maxOutputChars: number },
): CodemodeScriptResult {
	const result: CodemodeScriptResult = { ok: true, text: "", output: output.text, calls, started: true };
	if (output.fullOutputPath !== undefined) result.fullOutputPath = output.fullOutputPath;
	if (ending.kind === "completed") {
		result.text = completedText(output.text);
		return result;
	}
	result.ok = false;
	result.error = endingText(ending, limits);
	result.text = failedText(output.text, result.error, calls, limits.maxOutputChars);
	return result;
}

function endingText(
	ending: Exclude<Ending, { kind: "completed" }>,
	limits: { timeoutMs: number; memoryLimitBytes: number },
): string {
	switch (ending.kind) {
		case "timeout":
			return `Script timed out after ${limits.timeoutMs} ms (a first line // @options: {"timeout_ms": N} allows more).`;
		case "out-of-memory":
			return `Out of memory: the script went over its ${formatMebibytes(limits.memoryLimitBytes)} MiB memory limit.`;
		case "aborted":
			return "Script aborted.";
		case "crash":
			return `The sandbox stopped: ${ending.message}`;
		case "exception": {
			const context = ending.context === "" ? "" : ` (${ending.context})`;
			const stack = scriptFrames(ending.stack);
			return `${ending.message}${context}${stack === "" ? "" : `\n${stack}`}`;
		}
	}
}

/** The stack lines that point into the script (the prelude's own frames say nothing to the model). */
function scriptFrames(stack: string): string {
	return stack
		.split("\n")
		.filter((line) => line.trim() !== "" && !line.includes("prelude.js"))
		.map((line) =>
			line.replace(/script\.js:1:(\d+)/g, (_match, column: string) => {
				return `script.js:1:${Math.max(1, Number(column) - SCRIPT_PREFIX.length)}`;
			}),
		)
		.join("\n");
}

function formatMebibytes(bytes: number): string {
	return String(Math.round((bytes / 1024 / 1024) * 10) / 10);
}

function notStarted(problem: string): CodemodeScriptResult {
	return { ok: false, text: notStartedText(problem), output: "", calls: [], error: problem, started: false };
}
