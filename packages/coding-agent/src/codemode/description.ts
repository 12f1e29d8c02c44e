import { formatListingSignature, formatToolSignature, type SignatureSource } from "./signatures.js";

/** Characters the tool listing of codemode's description may take. */
export const DEFAULT_DESCRIPTION_BUDGET = 8_000;
/** While each tool can have this many characters, the listing shows summaries and parameter descriptions. */
const RICH_ENTRY_LENGTH = 500;
/** The summary of a tool in a rich listing: its first paragraph, cut here. */
const MAX_SUMMARY_LENGTH = 300;
/** A compact listing's signature; detail is dropped beyond (describeTool has it all). */
const MAX_COMPACT_SIGNATURE = 240;
/** A compact listing's summary (the description's first sentence), cut here... */
const MAX_COMPACT_SUMMARY = 100;
/** ...and left out when the budget leaves each tool fewer characters than this. */
const MIN_COMPACT_SUMMARY = 24;
/** The names of the tools left out get at least this many characters... */
const MIN_NAMES_LENGTH = 200;
/** ...and about this many each (a name after its shared prefix, and its separator). */
const NAME_ROOM = 16;
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
			: "Run JavaScript that calls tools: loops, filtering, chaining results, parallel calls with Promise.all.",
		"Only what the script prints or returns comes back to you, so large intermediate results stay out of the conversation.",
		"",
		"`code` is the body of an async function (top-level await and return work). Inside it:",
		'- `await tools.<name>(args)` calls a tool (characters not valid in an identifier become `_`; `tools["raw name"]` works too). It rejects with the tool\'s error text when the tool fails; calls already made are not undone when the script fails.',
		"- `text(value)` and `console.log/info/warn/error(...)` add to the output (non-strings as JSON), and so does a returned value.",
		"- `ALL_TOOLS` ({ name, description }[] of every tool a script can call), `searchTools(query, { limit })` (ranked matches, tools found only by search included), `describeTool(name)` (description and parameters).",
		"No require, import, process, fetch, filesystem, network or timers.",
		`Limits: ${seconds} s, ${mebibytes} MiB, ${options.maxOutputTokens} tokens of output (head and tail kept, the rest saved to a file); a first line \`// @options: {"timeout_ms": N, "max_output_tokens": N}\` changes time and output for one script.`,
	].join("\n");
}

/**
 * The full description: the base text, then the tools. While every tool can have `RICH_ENTRY_LENGTH`
 * characters, each gets its summary and a signature with its parameters' descriptions; past that the listing
 * is compact, one line a tool: the signature with every parameter's name and type (what a script needs to
 * call it right), then as much of the summary's first sentence as the budget leaves. Tools that do not fit
 * are named at the end (ALL_TOOLS and describeTool have them).
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
	const rich = budget / tools.length >= RICH_ENTRY_LENGTH;
	const { entries, listed } = rich ? richEntries(tools, budget) : compactEntries(tools, budget);
	const heading = options.mode === "only" ? "Tools" : "Tools reached through scripts";
	const note = rich ? "" : "; `object`: describeTool(name) gives its fields";
	let text = `${base}\n\n${heading} (a call resolves to the tool's text unless → shows a structured result${note}):\n${entries.join(rich ? "\n\n" : "\n")}`;
	const rest = tools.slice(listed).map((tool) => tool.name);
	if (rest.length > 0) {
		const used = entries.reduce((sum, entry) => sum + entry.length + 1, 0);
		const names = fitNames(rest, Math.max(MIN_NAMES_LENGTH, budget - used));
		text += `\n${rest.length} more (describeTool(name) gives one's parameters): ${names}`;
	}
	return text;
}

/** Summary comment lines and a signature with the parameters' descriptions, for each tool in turn. */
function richEntries(tools: readonly DescribedTool[], budget: number): { entries: string[]; listed: number } {
	const perEntry = Math.floor(budget / tools.length);
	const entries: string[] = [];
	let used = 0;
	for (const tool of tools) {
		const summary = summarize(tool.description, MAX_SUMMARY_LENGTH)
			.split("\n")
			.map((line) => `// ${line}`)
			.join("\n");
		const signature = formatListingSignature(tool, Math.max(80, perEntry - summary.length - 1), true);
		const entry = `${summary}\n${signature.text}${leftOutNote(tool, signature.leftOut)}`;
		if (used + entry.length > budget && entries.length > 0) break;
		entries.push(entry);
		used += entry.length + 2;
	}
	return { entries, listed: entries.length };
}

/**
 * One line a tool: every signature that fits first (each at most `MAX_COMPACT_SIGNATURE` characters, detail
 * dropped beyond), then the characters left shared out as summaries.
 */
function compactEntries(tools: readonly DescribedTool[], budget: number): { entries: string[]; listed: number } {
	const signatures: string[] = [];
	// Room is kept for the names of the tools left out.
	let used = 0;
	for (const [index, tool] of tools.entries()) {
		const line = formatListingSignature(tool, MAX_COMPACT_SIGNATURE).text;
		const namesLeft = (tools.length - index - 1) * NAME_ROOM;
		if (used + line.length + 1 + namesLeft > budget && signatures.length > 0) break;
		signatures.push(line);
		used += line.length + 1;
	}
	const namesRoom = (tools.length - signatures.length) * NAME_ROOM;
	const allowance = Math.min(MAX_COMPACT_SUMMARY, Math.floor((budget - used - namesRoom) / signatures.length) - 4);
	const entries = signatures.map((line, index) => {
		if (allowance < MIN_COMPACT_SUMMARY) return line;
		const summary = summarize(firstSentence(tools[index]!.description), allowance);
		return summary === "(no description)" ? line : `${line} // ${summary}`;
	});
	return { entries, listed: signatures.length };
}

function leftOutNote(tool: DescribedTool, leftOut: string | undefined): string {
	return leftOut ? `\n// (${leftOut} left out: describeTool(${JSON.stringify(tool.name)}) has them)` : "";
}

/** The text `describeTool(name)` returns: the whole description and a detailed signature. */
export function describeToolText(tool: DescribedTool): string {
	const signature = formatToolSignature(tool, DESCRIBE_SIGNATURE_LENGTH);
	const note = signature.leftOut ? `\n(${signature.leftOut} left out for length)` : "";
	return `${tool.name}\n${tool.description.trim()}\n\n${signature.text}${note}`;
}

/** The description's first paragraph, cut to `maxLength` characters. */
function summarize(description: string, maxLength: number): string {
	const paragraph = description.trim().split(/\n\s*\n/, 1)[0] ?? "";
	if (paragraph === "") return "(no description)";
	return paragraph.length > maxLength ? `${paragraph.slice(0, maxLength - 1)}…` : paragraph;
}

/** The first sentence of a description, on one line. */
function firstSentence(description: string): string {
	const flat = description.trim().replace(/\s+/g, " ");
	const end = flat.search(/[.!?](\s|$)/);
	return end < 0 ? flat : flat.slice(0, end + 1);
}

/**
 * The names, within `maxLength`: those sharing a prefix (an MCP server's `mcp__server__`, or a first `word_`)
 * written once per prefix with brace expansion, `mcp__github__{create_issue, get_issue}`, in first-seen order.
 */
function fitNames(names: string[], maxLength: number): string {
	const groups = new Map<string, string[]>();
	for (const name of names) {
		const prefix = namePrefix(name);
		const members = groups.get(prefix);
		if (members) members.push(name.slice(prefix.length));
		else groups.set(prefix, [name.slice(prefix.length)]);
	}
	const parts = [...groups].map(([prefix, rest]) =>
		rest.length === 1 ? `${prefix}${rest[0]}` : `${prefix}{${rest.join(", ")}}`,
	);
	const text = parts.join(", ");
	if (text.length <= maxLength) return text;
	const cut = text.lastIndexOf(", ", maxLength);
	const shown = cut > 0 ? text.slice(0, cut) : text.slice(0, maxLength);
	return `${shown}${shown.split("{").length > shown.split("}").length ? "…}" : ""}, and more (ALL_TOOLS lists them all)`;
}

/** The part of a tool name its siblings are likely to share: up to the last `__`, else up to the first `_`. */
function namePrefix(name: string): string {
	const double = name.lastIndexOf("__");
	if (double > 0) return name.slice(0, double + 2);
	const single = name.indexOf("_");
	return single > 0 ? name.slice(0, single + 1) : "";
}
