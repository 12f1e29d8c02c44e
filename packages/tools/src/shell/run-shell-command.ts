import type { AgentToolResult, AgentToolUpdateCallback } from "@gantry/agent";
import { type JsonValue, withoutUndefined } from "@gantry/ai";
import { childAbortController, throwIfAborted } from "../abort.js";
import { OutputAccumulator, type OutputSnapshot } from "../output-accumulator.js";
import { formatSize } from "../truncate.js";
import type { WorkspaceFileSystem } from "../workspace/types.js";
import type { ShellOperations } from "./shell-operations.js";
import { plainTerminalText } from "./terminal-text.js";

/** Least time between two `onUpdate` calls of a running shell command. */
export const BASH_UPDATE_THROTTLE_MS = 100;
/** setTimeout's limit, in seconds. */
const MAX_TIMEOUT_SECONDS = Math.floor(2_147_483_647 / 1000);

/** What a shell tool's result (and each progress update) carries in `details`. */
export interface ShellToolDetails {
	/** The exit code; null while the command runs and when a signal ended it. */
	exitCode: number | null;
	/** The signal that ended the command, when one did. */
	signal?: string;
	/** True when the output shown is only its tail. */
	truncated: boolean;
	/** The file with the complete output, when it was truncated. */
	fullOutputPath?: string;
	/** Seconds from start to end (or to this update). */
	wallTimeSeconds: number;
}

export interface RunShellCommandOptions {
	operations: ShellOperations;
	command: string;
	cwd: string;
	/** Seconds; undefined for no limit. Validate it with `parseShellTimeout` first. */
	timeout?: number;
	signal?: AbortSignal;
	onUpdate?: AgentToolUpdateCallback<ShellToolDetails>;
	env?: Record<string, string>;
	/** Run outside the workspace's OS sandbox (see `WorkspaceSpawnOptions.unsandboxed`). Default false. */
	unsandboxed?: boolean;
	/** Where the full-output file is written. */
	files: WorkspaceFileSystem;
	/** Folder for the full-output file. */
	tempDir: string;
	/** Start of the full-output file's name. */
	filePrefix: string;
}

/**
 * Checks a model-given timeout: a positive number of seconds, or null/undefined for none.
 * Throws an error that says what a valid value looks like.
 */
export function parseShellTimeout(timeout: unknown): number | undefined {
	if (timeout === undefined || timeout === null) return undefined;
	if (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0) {
		throw new Error(
			`Invalid timeout: ${JSON.stringify(timeout)}. "timeout" is in seconds and must be a positive number (e.g. 60); leave it out for no limit.`,
		);
	}
	if (timeout > MAX_TIMEOUT_SECONDS) {
		throw new Error(`Invalid timeout: ${timeout}. "timeout" can be at most ${MAX_TIMEOUT_SECONDS} seconds.`);
	}
	return timeout;
}

/**
 * Runs one command through `operations` and turns the outcome into a tool result: exit 0 → normal result,
 * another exit → `isError: true` result, both with `structuredContent`. Throws on abort and timeout (the
 * message carries the output so far) and when the command cannot start. Every process the command started
 * is dead before an abort or timeout is reported.
 */
export async function runShellCommand(options: RunShellCommandOptions): Promise<AgentToolResult<ShellToolDetails>> {
	const { signal, onUpdate, timeout } = options;
	throwIfAborted(signal);

	const accumulator = new OutputAccumulator({
		files: options.files,
		tempDir: options.tempDir,
		filePrefix: options.filePrefix,
	});
	// The call's own signal: however many calls share `signal`, it carries one listener (see `onAbort`).
	const { controller, dispose } = childAbortController(signal);
	let timedOut = false;
	const timer =
		timeout === undefined
			? undefined
			: setTimeout(() => {
					timedOut = true;
					controller.abort();
				}, timeout * 1000);

	const start = performance.now();
	const elapsedSeconds = () => Math.round(performance.now() - start) / 1000;
	let lastUpdate = Number.NEGATIVE_INFINITY;
	let updateTimer: NodeJS.Timeout | undefined;
	const sendUpdate = () => {
		updateTimer = undefined;
		lastUpdate = performance.now();
		const snapshot = accumulator.snapshot();
		onUpdate?.({
			content: [{ type: "text", text: plainTerminalText(snapshot.output) }],
			details: { exitCode: null, ...outputDetails(snapshot), wallTimeSeconds: elapsedSeconds() },
		});
	};
	let settled = false;
	const onData = (data: Buffer): Promise<void> | undefined => {
		if (settled) return undefined;
		const keepGoing = accumulator.push(data);
		if (onUpdate && !updateTimer) {
			const wait = lastUpdate + BASH_UPDATE_THROTTLE_MS - performance.now();
			if (wait <= 0) sendUpdate();
			else updateTimer = setTimeout(sendUpdate, wait);
		}
		return keepGoing ? undefined : accumulator.drained();
	};

	let exit: Awaited<ReturnType<ShellOperations["exec"]>>;
	try {
		exit = await options.operations.exec(
			options.command,
			options.cwd,
			withoutUndefined({
				onData,
				signal: controller.signal,
				timeout,
				env: options.env,
				unsandboxed: options.unsandboxed || undefined,
			}),
		);
	} catch (error) {
		if (!controller.signal.aborted) {
			settled = true;
			await accumulator.finish();
			throw error;
		}
		exit = { exitCode: null };
	} finally {
		settled = true;
		clearTimeout(timer);
		clearTimeout(updateTimer);
		dispose();
	}
	const wallTimeSeconds = elapsedSeconds();
	const snapshot = await accumulator.finish();

	if (timedOut) throw new Error(withOutput(snapshot, `Command timed out after ${timeout} seconds`));
	if (controller.signal.aborted) throw new Error(withOutput(snapshot, "Command aborted"));

	const output = withoutFinalNewline(plainTerminalText(snapshot.output));
	const details: ShellToolDetails = { exitCode: exit.exitCode, ...outputDetails(snapshot), wallTimeSeconds };
	if (exit.signal) details.signal = exit.signal;
	const structuredContent: Record<string, JsonValue> = {
		output,
		truncated: snapshot.truncated,
		exit_code: exit.exitCode,
		wall_time_seconds: wallTimeSeconds,
	};
	if (details.fullOutputPath) structuredContent.full_output_path = details.fullOutputPath;
	if (exit.signal) structuredContent.signal = exit.signal;

	const failure =
		exit.signal !== undefined
			? `Command was killed by signal ${exit.signal}`
			: exit.exitCode === null
				? "Command ended without an exit code (the process or its connection was lost before reporting one)"
				: exit.exitCode !== 0
					? `Command exited with code ${exit.exitCode}`
					: undefined;
	const text = joinParagraphs(output === "" ? "(no output)" : output, truncationNotice(snapshot), failure);
	return {
		content: [{ type: "text", text }],
		details,
		structuredContent,
		...(failure ? { isError: true } : {}),
	};
}

function outputDetails(snapshot: OutputSnapshot): Pick<ShellToolDetails, "truncated" | "fullOutputPath"> {
	return snapshot.fullOutputPath
		? { truncated: snapshot.truncated, fullOutputPath: snapshot.fullOutputPath }
		: { truncated: snapshot.truncated };
}

/** The model-facing notice for a cut output: what is shown and where the rest is. */
export function truncationNotice(snapshot: OutputSnapshot): string | undefined {
	if (!snapshot.truncated) return undefined;
	const { truncation } = snapshot;
	const where = snapshot.fullOutputPath
		? `Full output: ${snapshot.fullOutputPath}`
		: `The full output could not be saved${snapshot.fullOutputError ? ` (${snapshot.fullOutputError.message})` : ""}`;
	if (truncation.lastLinePartial) {
		return `[Showing the last ${formatSize(truncation.outputBytes)} of line ${snapshot.totalLines} (the line is longer than ${formatSize(truncation.maxBytes)}). ${where}]`;
	}
	const limit = truncation.truncatedBy === "bytes" ? ` (${formatSize(truncation.maxBytes)} limit)` : "";
	return `[Showing last ${truncation.outputLines} lines of ${snapshot.totalLines}${limit}. ${where}]`;
}

function withOutput(snapshot: OutputSnapshot, message: string): string {
	return joinParagraphs(withoutFinalNewline(plainTerminalText(snapshot.output)), truncationNotice(snapshot), message);
}

function withoutFinalNewline(text: string): string {
	return text.endsWith("\n") ? text.slice(0, -1) : text;
}

function joinParagraphs(...parts: (string | undefined)[]): string {
	return parts.filter((part) => part !== undefined && part !== "").join("\n\n");
}
