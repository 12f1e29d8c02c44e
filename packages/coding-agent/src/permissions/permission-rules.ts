import { CodingAgentError } from "../errors.js";
import { isInapplicableTool, type PathRuleScope, pathRuleScope, toolsNamedBy } from "./tool-names.js";

/**
 * Permission rules in the settings-file form (Claude Code's): `read` or `Read` (a tool), `mcp__github__*`
 * (a tool-name pattern), `Bash(npm test:*)` (a command prefix, whole words), `bash(git status)` (an exact
 * command), `Edit(src/**)` (a glob on the paths a call touches). Tool names match without regard to case.
 * `Read(…)` rules hold for every file a builtin reads (read, grep, find, ls, and the file an edit changes);
 * `Edit(…)` / `Write(…)` rules for every file a builtin changes (edit, write, apply_patch).
 */
export interface PermissionRules {
	/** Calls a rule here matches run without asking (unless a deny or ask rule matches them too). */
	allow?: string[];
	/** Calls a rule here matches are blocked, whatever allows them (deny beats ask, allow and every mode). */
	deny?: string[];
	/** Calls a rule here matches always ask (blocked without a UI), even when an allow rule or the mode would run them. */
	ask?: string[];
}

interface RuleBase {
	/** The rule as written. */
	text: string;
	/** Whether the rule's tool part names `toolName`. */
	matchesTool(toolName: string): boolean;
}

/**
 * A parsed rule: a whole tool, one shell command (exact or prefix), a path glob (with the accesses it judges),
 * or a rule for one of Claude Code's tools Gantry lacks (`WebFetch(domain:…)`), which matches nothing.
 */
export type PermissionRule =
	| (RuleBase & { kind: "tool" })
	| (RuleBase & { kind: "command"; words: string[]; prefix: boolean })
	| (RuleBase & { kind: "path"; pattern: string; scope: PathRuleScope })
	| (RuleBase & { kind: "inapplicable"; tool: string });

/** The tools whose calls carry a shell command in `command`; command rules judge their parse. */
export const SHELL_TOOLS: ReadonlySet<string> = new Set(["bash"]);

const RULE = /^([A-Za-z0-9_.*-]+)(?:\((.*)\))?$/s;
const SHELL_SYNTAX = /[;&|<>()`$\n]/;

function invalidRule(text: string, why: string): CodingAgentError {
	return new CodingAgentError(
		"invalid_option",
		`The permission rule ${JSON.stringify(text)} ${why}. Rules look like Read, mcp__github__*, Bash(npm test:*), Bash(git status) or Edit(src/**).`,
	);
}

/** The tool part's matcher: Claude Code's and Gantry's names cover their tools, anything else is a name pattern. */
function toolNameMatcher(pattern: string): (name: string) => boolean {
	const named = toolsNamedBy(pattern);
	if (named !== undefined) return (name) => named.includes(name.toLowerCase());
	const escaped = pattern.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\-]/g, "\\$&"));
	const expression = new RegExp(`^${escaped.join(".*")}$`, "i");
	return (name) => expression.test(name);
}

/** Splits a rule's command into words: whitespace separates, quotes and backslashes work as in the shell. */
function splitCommandWords(rule: string, command: string): string[] {
	const words: string[] = [];
	let current: string | undefined;
	for (let index = 0; index < command.length; index++) {
		const character = command[index] as string;
		if (/\s/.test(character)) {
			if (current !== undefined) words.push(current);
			current = undefined;
		} else if (character === "'" || character === '"') {
			const end = command.indexOf(character, index + 1);
			if (end === -1) throw invalidRule(rule, `has an unclosed ${character}`);
			current = (current ?? "") + command.slice(index + 1, end).replace(/\\(["\\])/g, "$1");
			index = end;
		} else if (character === "\\" && index + 1 < command.length) {
			current = (current ?? "") + command[++index];
		} else if (SHELL_SYNTAX.test(character)) {
			throw invalidRule(rule, `contains shell syntax (${character}); a command rule names one simple command`);
		} else if (character === "*") {
			throw invalidRule(
				rule,
				"has a * inside the command; end it with :* (or a space and *) for a prefix, as in Bash(npm test:*)",
			);
		} else {
			current = (current ?? "") + character;
		}
	}
	if (current !== undefined) words.push(current);
	return words;
}

/** Parses one rule; throws `invalid_option` with what is wrong and how to write it. */
export function parsePermissionRule(text: string): PermissionRule {
	const trimmed = typeof text === "string" ? text.trim() : "";
	const match = RULE.exec(trimmed);
	if (!match) throw invalidRule(String(text), "is not a tool name with an optional (specifier)");
	const tool = match[1] as string;
	const specifier = match[2];
	if (isInapplicableTool(tool)) return { kind: "inapplicable", text: trimmed, tool, matchesTool: () => false };
	const matchesTool = toolNameMatcher(tool);
	if (specifier === undefined || specifier.trim() === "*") return { kind: "tool", text: trimmed, matchesTool };
	if (specifier.trim() === "") throw invalidRule(trimmed, "has empty parentheses; drop them to name the whole tool");
	if (tool.toLowerCase() === "powershell") {
		throw invalidRule(
			trimmed,
			"judges a powershell command, which cannot be parsed; allow or deny powershell as a whole",
		);
	}
	if (SHELL_TOOLS.has(tool.toLowerCase())) {
		const body = specifier.trim();
		const prefix = body.endsWith(":*") || body.endsWith(" *");
		const words = splitCommandWords(trimmed, prefix ? body.slice(0, -2) : body);
		if (words.length === 0) throw invalidRule(trimmed, "names no command");
		return { kind: "command", text: trimmed, matchesTool, words, prefix };
	}
	return { kind: "path", text: trimmed, matchesTool, pattern: specifier.trim(), scope: pathRuleScope(tool) };
}

/** Parses a list of rules (see {@link parsePermissionRule}); `where` names the list in errors. */
export function parsePermissionRules(rules: readonly string[] | undefined, where: string): PermissionRule[] {
	if (rules === undefined) return [];
	if (!Array.isArray(rules)) {
		throw new CodingAgentError(
			"invalid_option",
			`${where} must be a list of rule strings, e.g. ["Read", "Bash(npm test:*)"]`,
		);
	}
	return rules.map((rule, index) => {
		if (typeof rule !== "string") {
			throw new CodingAgentError("invalid_option", `${where}[${index}] must be a rule string (got ${typeof rule})`);
		}
		return parsePermissionRule(rule);
	});
}

/** The tool part of a rule as written: `Read` of `Read(**\/.env)`. */
export function ruleToolPart(text: string): string {
	const open = text.indexOf("(");
	return (open === -1 ? text : text.slice(0, open)).trim();
}
