import { formatToolSignature, type SignatureSource } from "./signatures.js";

/** Characters the tool listing of codemode's description may take. */
export const DEFAULT_DESCRIPTION_BUDGET = 16_000;
/** Every listed tool gets at least this many characters, whatever the number of tools. */
const MIN_ENTRY_LENGTH = 400;
/** The summary of a tool in the listing: its first paragraph, cut here. */
const MAX_SUMMARY_LENGTH = 300;
/** `describeTool(name)` allows its signature this much. */
const DESCRIBE_SIGNATURE_LENGTH = 8_000;

/** A tool as the description lists it. */
export interface DescribedTool extends SignatureSource {
	description: string;
}

export interface CodemodeDescriptionOptions {
	/** `"on"`: the listed tools are those reached only through scripts; `"only"`: every tool. */
	mode: "on" | "only";
	timeoutMs: number;
	memoryLimitBytes: number;
	maxOutputTokens: number;
	/** Characters for the tool listing. Default `DEFAULT_DESCRIPTION_BUDGET`. */
	budget?: number;
}

/** What codemode's description says before any tool is listed. */
export function codemodeBaseDescription(options: CodemodeDescriptionOptions): string {
	const seconds = options.timeoutMs / 1000;
	const mebibytes = Math.round((options.memoryLimitBytes / 1024 / 1024) * 10) / 10;
	return [
		options.mode === "only"
			? "Run JavaScript that calls tools: this is how you use every tool listed below."
			: "Run JavaScript that calls tools: loops, filtering, chaining results, and calls in parallel with Promise.all.",
		"Only what the script prints or returns comes back to you, so large intermediate results stay out of the conversation.",
		"",
		"`code` is the body of an async function (top-level await and return work). Inside it:",
		'- `await tools.<name>(args)` calls a tool (characters not valid in an identifier become `_`; `tools["raw name"]` works too). It resolves to the tool\'s structured result when its signature shows one, else to its text; a failing tool rejects with an Error carrying its error text. Calls already made are not undone when the script fails.',
		"- `text(value)` and `console.log/info/warn/error(...)` add to the output (non-strings as JSON); a returned value is added too.",
		"- `ALL_TOOLS` ({ name, description }[] of every tool a script can call, listed here or not), `searchTools(query, { limit })` (ranked matches, including tools found only by search) and `describeTool(name)` (description and parameters).",
		"There is no require, import, process, fetch, filesystem, network or timers.",
		`Limits: ${seconds} s of run time, ${mebibytes} MiB of memory, ${options.maxOutputTokens} tokens of output (head and tail kept, the full output saved to a file). A first line \`// @options: {"timeout_ms": N, "max_output_tokens": N}\` changes the time and output limits for one script.`,
	].join("\n");
}

/**
 * The full description: the base text, then each tool's summary and TypeScript-like signature, fitted
 * into the budget (signatures lose detail first, then tools are left out by name, saying so).
 */
export function buildCodemodeDescription(tools: readonly DescribedTool[], options: CodemodeDescriptionOptions): string {
	const base = codemodeBaseDescription(options);
	if (tools.length === 0) {
		const none =
			options.mode === "only"
				? "No tools are callable from scripts right now."
				: "No tools are reached only through scripts right now; ALL_TOOLS lists the tools a script can call.";
		return `${base}\n\n${none}`;
	}
	const budget = options.budget ?? DEFAULT_DESCRIPTION_BUDGET;
	const perEntry = Math.max(MIN_ENTRY_LENGTH, Math.floor(budget / tools.length));
	const entries: string[] = [];
	let used = 0;
	let index = 0;
	for (; index < tools.length; index++) {
		const entry = formatEntry(tools[index], perEntry);
		if (used + entry.length > budget && entries.length > 0) break;
		entries.push(entry);
		used += entry.length + 2;
	}
	const heading = options.mode === "only" ? "Tools:" : "Tools reached through scripts:";
	let text = `${base}\n\n${heading}\n\n${entries.join("\n\n")}`;
	const rest = tools.slice(index).map((tool) => tool.name);
	if (rest.length > 0) {
		const names = fitNames(rest, Math.max(200, budget - used));
		text += `\n\n${rest.length} more tool(s) left out here to keep this short (ALL_TOOLS lists them, describeTool(name) describes one): ${names}`;
	}
	return text;
}

/** The text `describeTool(name)` returns: the whole description and a detailed signature. */
export function describeToolText(tool: DescribedTool): string {
	const signature = formatToolSignature(tool, DESCRIBE_SIGNATURE_LENGTH);
	const note = signature.leftOut ? `\n(${signature.leftOut} left out for length)` : "";
	return `${tool.name}\n${tool.description.trim()}\n\n${signature.text}${note}`;
}

function formatEntry(tool: DescribedTool, maxLength: number): string {
	const summary = summarize(tool.description)
		.split("\n")
		.map((line) => `// ${line}`)
		.join("\n");
	const signature = formatToolSignature(tool, Math.max(80, maxLength - summary.length - 1));
	const note = signature.leftOut
		? `\n// (${signature.leftOut} left out: describeTool(${JSON.stringify(tool.name)}) has them)`
		: "";
	return `${summary}\n${signature.text}${note}`;
}

function summarize(description: string): string {
	const paragraph = description.trim().split(/\n\s*\n/, 1)[0] ?? "";
	if (paragraph === "") return "(no description)";
	return paragraph.length > MAX_SUMMARY_LENGTH ? `${paragraph.slice(0, MAX_SUMMARY_LENGTH - 1)}…` : paragraph;
}

function fitNames(names: string[], maxLength: number): string {
	let text = "";
	for (let index = 0; index < names.length; index++) {
		const next = text === "" ? names[index] : `${text}, ${names[index]}`;
		if (next.length > maxLength) return `${text}, and ${names.length - index} more`;
		text = next;
	}
	return text;
}
