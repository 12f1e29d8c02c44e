import type { ToolDefinition } from "@gantry/extensions";
import type { ContextFile } from "./context-files.js";

export interface SystemPromptInput {
	cwd: string;
	/** Declared tools' definitions, in declaration order. */
	declared: readonly ToolDefinition[];
	/** Replaces the opening paragraph. */
	basePrompt?: string;
	/** Appended at the end. */
	appendix?: string;
	/**
	 * Project instructions (`AGENTS.md`, `CLAUDE.md`, as `findContextFiles` returns them), in order: each
	 * under a heading naming its path, after the guidelines. Default: none.
	 */
	contextFiles?: readonly ContextFile[];
	date?: Date;
}

const BASE_PROMPT = `You are an expert coding assistant working in the user's project. You read files, run commands,
edit code and write new files with the tools below. Work step by step: look before you change, keep edits small
and exact, and verify what you did (run the tests or the program) before you say you are done.`;

const BASE_GUIDELINES = [
	"Be concise in your replies; show file paths clearly.",
	"Prefer the dedicated tools over shell equivalents when one fits.",
];

/** Builds the system prompt from the declared tools' snippets and guidelines (de-duplicated, in order). */
export function buildSystemPrompt(input: SystemPromptInput): string {
	const toolLines = input.declared
		.filter((definition) => definition.promptSnippet?.trim())
		.map((definition) => `- ${definition.name}: ${definition.promptSnippet?.trim()}`);
	const guidelines: string[] = [];
	const seen = new Set<string>();
	for (const line of [
		...BASE_GUIDELINES,
		...input.declared.flatMap((definition) => definition.promptGuidelines ?? []),
	]) {
		const trimmed = line.trim();
		if (trimmed && !seen.has(trimmed)) {
			seen.add(trimmed);
			guidelines.push(`- ${trimmed}`);
		}
	}
	const date = (input.date ?? new Date()).toISOString().slice(0, 10);
	const sections = [input.basePrompt ?? BASE_PROMPT];
	if (toolLines.length > 0) sections.push(`Available tools:\n${toolLines.join("\n")}`);
	sections.push(`Guidelines:\n${guidelines.join("\n")}`);
	if (input.contextFiles && input.contextFiles.length > 0) sections.push(instructionsSection(input.contextFiles));
	sections.push(`Current date: ${date}\nCurrent working directory: ${input.cwd}`);
	if (input.appendix) sections.push(input.appendix);
	return sections.join("\n\n");
}

function instructionsSection(files: readonly ContextFile[]): string {
	const parts = [
		"Project instructions: the user's own file first, then the repository's from its root down to the working folder (later ones are more specific and win where they disagree). Follow them.",
	];
	for (const file of files) {
		const body = file.content.trimEnd();
		const cut =
			file.omittedBytes === undefined
				? ""
				: `${body === "" ? "" : "\n\n"}[${file.omittedBytes.toLocaleString("en-US")} more bytes of this file are not shown: they are past the size limit for instruction files. Read the file for the rest.]`;
		parts.push(`## ${file.path}\n\n${body}${cut}`);
	}
	return parts.join("\n\n");
}
