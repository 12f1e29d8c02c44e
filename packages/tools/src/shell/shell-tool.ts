import { type ConstrainedSampling, withoutUndefined } from "@gantry/ai";
import { defineTool, type Theme, type ToolDefinition } from "@gantry/extensions";
import { Type } from "@sinclair/typebox";
import { throwIfAborted } from "../abort.js";
import type { Workspace } from "../workspace/types.js";
import { checkShellCommandLength, commandTooLongForHost } from "./command-length.js";
import { parseShellTimeout, runShellCommand, type ShellToolDetails } from "./run-shell-command.js";
import type { ShellOperations } from "./shell-operations.js";

const COLLAPSED_RESULT_LINES = 5;
const EXPANDED_RESULT_LINES = 200;
const CALL_PREVIEW_CHARS = 120;

/** `{ command, timeout? }`, with the command described for one shell. */
export function createShellSchema(commandDescription: string) {
	return Type.Object(
		{
			command: Type.String({ description: commandDescription }),
			timeout: Type.Optional(
				Type.Number({
					exclusiveMinimum: 0,
					description: "Time limit in seconds (a positive number). Leave it out for no limit.",
				}),
			),
		},
		{ additionalProperties: false },
	);
}

export type ShellSchema = ReturnType<typeof createShellSchema>;

/** The parameter that asks to run a command outside the OS sandbox, Claude Code's name for it. */
export const DISABLE_SANDBOX_PARAMETER = "dangerouslyDisableSandbox";

/**
 * `schema` plus `dangerouslyDisableSandbox`, for a shell whose workspace is sandboxed and lets the model
 * ask to leave it. Typed as `schema` (the extra flag is optional and read by name).
 */
export function withSandboxEscape(schema: ShellSchema): ShellSchema {
	return Type.Object(
		{
			...schema.properties,
			[DISABLE_SANDBOX_PARAMETER]: Type.Optional(
				Type.Boolean({
					description:
						"Set to true only to run this command outside the OS sandbox, after it failed because of the sandbox (the result named the path or host and the setting). The user is asked first. Leave it out otherwise.",
				}),
			),
		},
		{ additionalProperties: false },
	) as unknown as ShellSchema;
}

/** `structuredContent` of a shell tool's result (also set on a non-zero exit). */
export const shellOutputSchema = Type.Object(
	{
		output: Type.String({ description: "The output (stdout and stderr merged); only its tail when truncated." }),
		truncated: Type.Boolean({ description: "True when `output` is only the tail of the output." }),
		full_output_path: Type.Optional(Type.String({ description: "File with the complete output, when truncated." })),
		exit_code: Type.Union([Type.Integer(), Type.Null()], {
			description: "The exit code; null when a signal ended the command.",
		}),
		signal: Type.Optional(Type.String({ description: "The signal that ended the command, when one did." })),
		wall_time_seconds: Type.Number({ description: "Seconds the command ran." }),
	},
	{ additionalProperties: false },
);

/** Everything that differs between bash and powershell. */
export interface ShellToolConfig {
	name: string;
	label: string;
	description: string;
	promptSnippet: string;
	promptGuidelines: string[];
	parameters: ShellSchema;
	/** Prompt shown before the command by `renderCall`, e.g. `"$"`. */
	prompt: string;
	constrainedSampling?: ConstrainedSampling;
	/** Where commands run (its `cwd`) and where full-output files go (its `tempDir`, unless `tempDir`). */
	workspace: Workspace;
	operations: ShellOperations;
	env?: Record<string, string>;
	tempDir?: string;
	/** Start of full-output file names, e.g. `"gantry-bash"`. */
	filePrefix: string;
	/** `parameters` has `dangerouslyDisableSandbox`: pass it on to the workspace as `unsandboxed`. */
	sandboxEscape?: boolean;
	/** A command that runs a saved script, for the error on a too long command, e.g. `"bash script.sh"`. */
	runFileExample: string;
	/**
	 * The tool's own `operations` pass the command as one argument: a command over
	 * `MAX_SHELL_COMMAND_BYTES` is turned away before spawning. Custom operations may take longer ones.
	 */
	checkCommandLength: boolean;
}

/** The tool definition bash and powershell share. */
export function createShellToolDefinition(config: ShellToolConfig): ToolDefinition<ShellSchema, ShellToolDetails> {
	return defineTool<ShellSchema, ShellToolDetails>({
		name: config.name,
		label: config.label,
		description: config.description,
		promptSnippet: config.promptSnippet,
		promptGuidelines: config.promptGuidelines,
		parameters: config.parameters,
		outputSchema: shellOutputSchema,
		annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
		...withoutUndefined({ constrainedSampling: config.constrainedSampling }),
		async execute(_toolCallId, params, signal, onUpdate) {
			throwIfAborted(signal);
			const command: unknown = params.command;
			if (typeof command !== "string" || command.trim() === "") {
				throw new Error(`"command" must be a non-empty string with the ${config.label} command to run.`);
			}
			const limit = { label: config.label, runFile: config.runFileExample };
			if (config.checkCommandLength) checkShellCommandLength(command, limit);
			const timeout = parseShellTimeout(params.timeout);
			const leaveSandbox: unknown = (params as Record<string, unknown>)[DISABLE_SANDBOX_PARAMETER];
			return runShellCommand(
				withoutUndefined({
					operations: config.operations,
					command,
					cwd: config.workspace.cwd,
					timeout,
					signal,
					onUpdate,
					env: config.env,
					unsandboxed: config.sandboxEscape === true && leaveSandbox === true ? true : undefined,
					files: config.workspace.fs,
					tempDir: config.tempDir ?? config.workspace.tempDir,
					filePrefix: config.filePrefix,
				}),
			).catch((error: unknown) => {
				throw commandTooLongForHost(command, error, limit) ?? error;
			});
		},
		renderCall(args, theme) {
			const command = String(args.command ?? "");
			const newline = command.indexOf("\n");
			const firstLine = newline === -1 ? command : command.slice(0, newline);
			const multiline = newline !== -1;
			const preview =
				firstLine.length > CALL_PREVIEW_CHARS || multiline ? `${firstLine.slice(0, CALL_PREVIEW_CHARS)} …` : firstLine;
			const limit = typeof args.timeout === "number" ? theme.dim(` (timeout ${args.timeout}s)`) : "";
			return `${theme.bold(config.prompt)} ${preview}${limit}`;
		},
		renderResult(result, { expanded, isPartial }, theme) {
			const text = result.content
				.map((block) => (block.type === "text" ? block.text : "[image]"))
				.join("\n")
				.replace(/\n+$/, "");
			const lines = text === "" ? [] : text.split("\n");
			const shown = expanded ? EXPANDED_RESULT_LINES : COLLAPSED_RESULT_LINES;
			const body = lines.slice(-shown);
			const hidden = lines.length - body.length;
			const out = hidden > 0 ? [theme.muted(`… ${hidden} earlier lines`), ...body] : body;
			const status = statusLine(result.details, isPartial, theme);
			if (status) out.push(status);
			return out.join("\n");
		},
	});
}

function statusLine(details: ShellToolDetails | undefined, isPartial: boolean, theme: Theme): string {
	if (!details) return isPartial ? theme.muted("running…") : "";
	const time = `${details.wallTimeSeconds.toFixed(1)}s`;
	const saved = details.fullOutputPath ? theme.warning(` · truncated, full output: ${details.fullOutputPath}`) : "";
	if (isPartial) return `${theme.muted(`running… ${time}`)}${saved}`;
	if (details.signal) return `${theme.error(`killed by ${details.signal} · ${time}`)}${saved}`;
	if (details.exitCode === 0) return `${theme.success(`exit 0 · ${time}`)}${saved}`;
	if (details.exitCode === null) return `${theme.error(`no exit code · ${time}`)}${saved}`;
	return `${theme.error(`exit ${details.exitCode} · ${time}`)}${saved}`;
}
