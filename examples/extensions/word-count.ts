/**
 * Word count: a custom tool with everything a polished tool has — an `outputSchema` and matching
 * `structuredContent` (what codemode scripts receive), MCP-style `annotations`, a prompt snippet, and
 * `renderCall` / `renderResult` for the terminal.
 *
 *     gantry -e examples/extensions/word-count.ts "How many words are in README.md?"
 */
import { defineTool, type ExtensionAPI, type Static, Type } from "@gantry/extensions";

const wordCountOutput = Type.Object({
	words: Type.Integer({ description: "Whitespace-separated words" }),
	lines: Type.Integer({ description: "Lines, counting a last line without a newline" }),
	characters: Type.Integer({ description: "Unicode code points" }),
});
type WordCounts = Static<typeof wordCountOutput>;

function countWords(text: string): WordCounts {
	const words = text.split(/\s+/).filter((word) => word.length > 0).length;
	const lines = text.length === 0 ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
	return { words, lines, characters: [...text].length };
}

export const wordCountTool = defineTool({
	name: "word_count",
	label: "Word count",
	description: "Counts the words, lines and characters of a text.",
	promptSnippet: "word_count: count the words, lines and characters of a text",
	parameters: Type.Object({ text: Type.String({ description: "The text to count" }) }),
	outputSchema: wordCountOutput,
	annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
	async execute(_toolCallId, params) {
		const counts = countWords(params.text);
		return {
			content: [
				{ type: "text", text: `${counts.words} words, ${counts.lines} lines, ${counts.characters} characters` },
			],
			structuredContent: counts,
			details: counts,
		};
	},
	renderCall(args, theme) {
		const preview = args.text.length > 40 ? `${args.text.slice(0, 40)}…` : args.text;
		return `${theme.bold("word_count")} ${theme.muted(JSON.stringify(preview))}`;
	},
	renderResult(result, { isPartial }, theme) {
		if (isPartial || result.details === undefined) return theme.dim("counting…");
		const { words, lines, characters } = result.details;
		return `${theme.success(`${words} words`)} ${theme.muted(`· ${lines} lines · ${characters} characters`)}`;
	},
});

export default function wordCount(api: ExtensionAPI): void {
	api.registerTool(wordCountTool);
}
