/**
 * The tool names a permission rule may give, and what each covers: Gantry's builtins and session tools,
 * and Claude Code's names, so a rule copied from a `.claude/settings.json` means what it meant there.
 */

/** The builtins and session tools of Gantry. */
export const GANTRY_TOOL_NAMES: readonly string[] = [
	"read",
	"bash",
	"edit",
	"write",
	"grep",
	"find",
	"ls",
	"powershell",
	"apply_patch",
	"codemode",
	"tool_search",
];

/** The tools that read files; `Read(…)` path rules hold for every read any of them makes. */
export const READ_TOOLS: readonly string[] = ["read", "grep", "find", "ls"];
/** The tools that change files; `Edit(…)` path rules hold for every write any of them makes. */
export const EDIT_TOOLS: readonly string[] = ["edit", "write", "apply_patch"];

/** A tool rule's tool part as Claude Code writes it, and the Gantry tools it covers. */
const CLAUDE_CODE_TOOLS: Readonly<Record<string, readonly string[]>> = {
	bash: ["bash"],
	powershell: ["powershell"],
	read: READ_TOOLS,
	edit: EDIT_TOOLS,
	write: ["write"],
	multiedit: ["edit"],
	grep: ["grep"],
	glob: ["find"],
	ls: ["ls"],
	toolsearch: ["tool_search"],
};

/** Claude Code's tools Gantry has no counterpart for: rules naming them are accepted and reported as not applicable. */
export const CLAUDE_CODE_INAPPLICABLE_TOOLS: readonly string[] = [
	"WebFetch",
	"WebSearch",
	"Task",
	"Agent",
	"NotebookEdit",
	"NotebookRead",
	"TodoWrite",
	"TodoRead",
	"KillShell",
	"KillBash",
	"BashOutput",
	"ExitPlanMode",
	"Skill",
	"SlashCommand",
	"LSP",
	"Monitor",
	"TaskCreate",
	"TaskGet",
	"TaskList",
	"TaskOutput",
	"TaskStop",
	"TaskUpdate",
	"Cd",
	"AskUserQuestion",
];

/** Every name a rule may give without being a near miss: Gantry's and Claude Code's (any case). */
export const KNOWN_RULE_TOOL_NAMES: readonly string[] = [
	...GANTRY_TOOL_NAMES,
	"Bash",
	"PowerShell",
	"Read",
	"Edit",
	"Write",
	"MultiEdit",
	"Grep",
	"Glob",
	"LS",
	"ToolSearch",
	...CLAUDE_CODE_INAPPLICABLE_TOOLS,
];

const INAPPLICABLE = new Set(CLAUDE_CODE_INAPPLICABLE_TOOLS.map((name) => name.toLowerCase()));

/** Whether a rule's tool part names one of Claude Code's tools that Gantry lacks. */
export function isInapplicableTool(name: string): boolean {
	return INAPPLICABLE.has(name.toLowerCase());
}

/** The Gantry tools a tool part names exactly (Claude Code's names mapped), or undefined for any other name. */
export function toolsNamedBy(name: string): readonly string[] | undefined {
	return CLAUDE_CODE_TOOLS[name.toLowerCase()];
}

/** What a path rule's tool part says about the accesses it judges. */
export type PathRuleScope =
	/** Every read any builtin makes (`Read(…)`, `read(…)`). */
	| { access: "read" }
	/** Every write any builtin makes (`Edit(…)`, `Write(…)`, `MultiEdit(…)`). */
	| { access: "write" }
	/** The reads of one builtin (`Grep(…)`, `Glob(…)`, `LS(…)`). */
	| { access: "read"; tool: string }
	/** The `path` argument of calls of the tools the part names (an extension's or MCP tool's own rules). */
	| { access: "self" };

/** How a path rule with this tool part is applied. */
export function pathRuleScope(name: string): PathRuleScope {
	switch (name.toLowerCase()) {
		case "read":
			return { access: "read" };
		case "edit":
		case "write":
		case "multiedit":
			return { access: "write" };
		case "grep":
			return { access: "read", tool: "grep" };
		case "glob":
		case "find":
			return { access: "read", tool: "find" };
		case "ls":
			return { access: "read", tool: "ls" };
		default:
			return { access: "self" };
	}
}
