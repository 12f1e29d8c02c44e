import type { ToolDefinition } from "@gantry/extensions";

export interface SystemPromptInput {
	cwd: string;
	/** Declared tools' definitions, in declaration order. */
	declared: readonly ToolDefinition[];
	/** Replaces the opening paragraph. */
	basePrompt?: string;
	/** Appended at the end. */
	appendix?: string;
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
	sections.push(`Current date: ${date}\nCurrent working directory: ${input.cwd}`);
	if (input.appendix) sections.push(input.appendix);
	return sections.join("\n\n");
}
