import { resolve } from "node:path";
import { type Extension, ExtensionRunner, loadExtensions } from "@gantry/extensions";
import { CodingAgentError } from "../errors.js";
import { AgentSession } from "./agent-session.js";
import type { AgentSessionOptions } from "./session-options.js";
import { Transcript } from "./transcript.js";

/**
 * Creates a session: loads the extensions (paths relative to `cwd`; one that fails to load is reported
 * and the others still load), opens or resumes the transcript, registers the tools and applies the
 * loadout. Throws `CodingAgentError` for bad options or an unreadable transcript.
 *
 * @example
 * const session = await createAgentSession({ cwd: process.cwd(), model: getModel("openai", "gpt-4.1") });
 * session.subscribe((event) => { if (event.type === "message_end") console.log(event.message); });
 * await session.prompt("Fix the failing test");
 */
export async function createAgentSession(options: AgentSessionOptions): Promise<AgentSession> {
	validateOptions(options);
	const runner = new ExtensionRunner({
		cwd: options.cwd,
		model: options.model,
		...(options.ui ? { ui: options.ui, hasUI: true } : {}),
	});
	const paths = (options.extensions ?? []).filter((entry): entry is string => typeof entry === "string");
	const loaded = paths.length > 0 ? await loadExtensions(paths, { cwd: options.cwd }) : [];
	let nextLoaded = 0;
	for (const entry of options.extensions ?? []) {
		if (typeof entry === "string") await runner.addLoaded([loaded[nextLoaded++]]);
		else await runner.add(entry as Extension, entry.name || "<inline>");
	}
	let transcript: ReturnType<typeof Transcript.open> | undefined;
	if (options.sessionFile) {
		try {
			transcript = Transcript.open(resolve(options.cwd, options.sessionFile), options.cwd);
		} catch (error) {
			throw new CodingAgentError(
				"invalid_transcript",
				`Cannot open session file ${options.sessionFile}: ${messageOf(error)}`,
				{
					cause: error,
				},
			);
		}
	}
	return new AgentSession(options, runner, transcript);
}

function validateOptions(options: AgentSessionOptions): void {
	if (typeof options.cwd !== "string" || options.cwd === "") {
		throw new CodingAgentError("invalid_option", "createAgentSession: `cwd` must be a folder path");
	}
	if (!options.model || typeof options.model.api !== "string") {
		throw new CodingAgentError(
			"invalid_option",
			'createAgentSession: `model` is required (e.g. getModel("openai", "gpt-4.1"))',
		);
	}
	if (options.noTools !== undefined && options.noTools !== "all" && options.noTools !== "builtin") {
		throw new CodingAgentError(
			"invalid_option",
			`createAgentSession: \`noTools\` must be "all" or "builtin" (got ${String(options.noTools)})`,
		);
	}
	if (
		options.toolExecution !== undefined &&
		options.toolExecution !== "parallel" &&
		options.toolExecution !== "sequential"
	) {
		throw new CodingAgentError(
			"invalid_option",
			`createAgentSession: \`toolExecution\` must be "parallel" or "sequential"`,
		);
	}
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
