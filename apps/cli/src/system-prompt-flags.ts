import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { AgentSessionOptions } from "@gantry/coding-agent";
import type { CliOptions } from "./args.js";
import { usageError } from "./errors.js";

/**
 * The session options of `--system-prompt`, `--append-system-prompt` and `--no-context-files`. A value
 * that starts with `@` names a file (relative to the shell's folder, read on this machine, also over
 * `--ssh`); `@@` stands for a literal `@`. Throws a usage error for a file that cannot be read or is empty.
 */
export function systemPromptOptions(
	options: Pick<CliOptions, "systemPrompt" | "appendSystemPrompt" | "noContextFiles">,
): Partial<AgentSessionOptions> {
	const result: Partial<AgentSessionOptions> = {};
	if (options.systemPrompt !== undefined) result.systemPrompt = promptText("--system-prompt", options.systemPrompt);
	if (options.appendSystemPrompt !== undefined) {
		result.appendSystemPrompt = promptText("--append-system-prompt", options.appendSystemPrompt);
	}
	if (options.noContextFiles) result.contextFiles = false;
	return result;
}

function promptText(flag: string, value: string): string {
	if (value.startsWith("@@")) return value.slice(1);
	if (!value.startsWith("@")) return value;
	const file = value.slice(1);
	let text: string;
	try {
		text = readFileSync(resolve(file), "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const reason = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : (code ?? String(error));
		throw usageError(`${flag} ${value}: cannot read ${file} (${reason}); write @@ for a text that starts with @`);
	}
	if (text.trim() === "") throw usageError(`${flag} ${value}: ${file} is empty`);
	return text;
}
