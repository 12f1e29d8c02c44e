import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentToolResult } from "@gantry/agent";
import type { TextContent } from "@gantry/ai";

/** Claude Code's default bound on what one MCP tool result may put in front of the model. */
export const DEFAULT_MAX_MCP_OUTPUT_TOKENS = 25_000;
/** Characters per token in the estimate (the usual rough figure for English and code). */
const CHARS_PER_TOKEN = 4;
/** Claude Code's bound on a tool description. */
export const MAX_MCP_DESCRIPTION_CHARS = 2000;

/**
 * The output bound: `explicit` when given, else `MAX_MCP_OUTPUT_TOKENS` from the environment (Claude
 * Code's name for it), else 25 000 tokens. Throws for a bound that is not a positive number, naming it.
 */
export function maxOutputTokens(
	explicit: number | undefined,
	env: Readonly<Record<string, string | undefined>>,
): number {
	if (explicit !== undefined) {
		if (!(Number.isFinite(explicit) && explicit > 0))
			throw new Error(`maxOutputTokens must be a positive number of tokens (got ${explicit}).`);
		return Math.floor(explicit);
	}
	const text = env.MAX_MCP_OUTPUT_TOKENS;
	if (text === undefined || text.trim() === "") return DEFAULT_MAX_MCP_OUTPUT_TOKENS;
	const value = Number(text);
	if (!(Number.isFinite(value) && value > 0))
		throw new Error(`MAX_MCP_OUTPUT_TOKENS must be a positive number of tokens (got "${text}").`);
	return Math.floor(value);
}

/** A description cut to `MAX_MCP_DESCRIPTION_CHARS`, ending with an ellipsis when cut. */
export function boundDescription(description: string): string {
	if (description.length <= MAX_MCP_DESCRIPTION_CHARS) return description;
	return `${description.slice(0, MAX_MCP_DESCRIPTION_CHARS - 1)}…`;
}

/** Where whole results are kept: one private folder per extension, made on first use. */
export class OutputFolder {
	readonly #parent: string;
	#folder: Promise<string> | undefined;
	#count = 0;

	constructor(parent: string = tmpdir()) {
		this.#parent = parent;
	}

	/** Writes `text` to a new file in the folder and resolves with its path. */
	async keep(server: string, tool: string, text: string): Promise<string> {
		this.#folder ??= mkdtemp(join(this.#parent, "gantry-mcp-output-"));
		const folder = await this.#folder;
		const safe = `${server}-${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80);
		const path = join(folder, `${safe}-${Date.now()}-${++this.#count}.txt`);
		await writeFile(path, text, { encoding: "utf8", mode: 0o600 });
		return path;
	}
}

/**
 * `result` with at most `maxTokens` (estimated as characters / 4) of text and structured content. A
 * result over the bound keeps the start of its text, and ends with a notice naming the file in `folder`
 * where the whole result (every text block, then the structured content as JSON) is kept; structured
 * content too large to fit is dropped from the result (it is in the file).
 */
export async function boundResult<T>(
	result: AgentToolResult<T>,
	maxTokens: number,
	folder: OutputFolder,
	names: { server: string; tool: string },
): Promise<AgentToolResult<T>> {
	const maxChars = maxTokens * CHARS_PER_TOKEN;
	const texts = result.content.filter((block): block is TextContent => block.type === "text");
	const textChars = texts.reduce((sum, block) => sum + block.text.length, 0);
	const structured = result.structuredContent === undefined ? "" : JSON.stringify(result.structuredContent);
	// A result whose only text is its structured content's JSON counts it once.
	const structuredIsText = texts.length === 1 && texts[0]?.text === structured;
	const total = textChars + (structuredIsText ? 0 : structured.length);
	if (total <= maxChars) return result;

	const whole = texts.map((block) => block.text).join("\n");
	const kept = structured === "" || structuredIsText ? whole : `${whole}\n\nstructuredContent:\n${structured}`;
	let where: string;
	try {
		where = `The whole result is in ${await folder.keep(names.server, names.tool, kept)} (read it in parts, or grep it).`;
	} catch (error) {
		where = `It could not be kept in a file (${(error as Error).message}).`;
	}
	const tokens = Math.ceil(total / CHARS_PER_TOKEN);
	const notice = `[The MCP tool "${names.tool}" of server "${names.server}" returned about ${tokens} tokens, over the ${maxTokens}-token limit (MAX_MCP_OUTPUT_TOKENS), so only the start is shown. ${where}]`;
	let room = Math.max(0, maxChars - notice.length);
	const content: AgentToolResult<T>["content"] = [];
	for (const block of result.content) {
		if (block.type !== "text") {
			content.push(block);
			continue;
		}
		if (room === 0) continue;
		const text = block.text.length <= room ? block.text : block.text.slice(0, room);
		room -= text.length;
		content.push({ type: "text", text });
	}
	content.push({ type: "text", text: notice });
	const bounded: AgentToolResult<T> = { ...result, content };
	if (structured.length > maxChars) delete bounded.structuredContent;
	return bounded;
}
