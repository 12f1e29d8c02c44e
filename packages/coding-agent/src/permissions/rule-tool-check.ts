import { closestName } from "../settings/did-you-mean.js";
import { ruleToolPart } from "./permission-rules.js";
import { KNOWN_RULE_TOOL_NAMES } from "./tool-names.js";

/** Whether a rule's tool part is a pattern or an MCP name (MCP tools register later, when their server answers). */
function isLateOrPattern(tool: string): boolean {
	return tool.includes("*") || tool.toLowerCase().startsWith("mcp__");
}

/**
 * The known tool name a rule's tool part misspells: a name within two edits of a known one (Gantry's
 * builtins, Claude Code's tools, `known`) that is not itself known (`Raed`, `bsh`). Undefined for a known
 * name, a pattern, an `mcp__…` name, or a name far from every known one (kept: see `rulesMatchingNoTool`).
 */
export function misspeltRuleTool(rule: string, known: readonly string[] = []): string | undefined {
	const tool = ruleToolPart(rule);
	if (tool === "" || isLateOrPattern(tool)) return undefined;
	const names = [...KNOWN_RULE_TOOL_NAMES, ...known];
	const lower = tool.toLowerCase();
	if (names.some((name) => name.toLowerCase() === lower)) return undefined;
	// Suggest in the style the rule is written in: `Raed` → `Read`, `raed` → `read`.
	const capitalised = (name: string) => name[0] !== undefined && name[0] !== name[0].toLowerCase();
	const styled = [...names].sort(
		(a, b) => Number(capitalised(b) === capitalised(tool)) - Number(capitalised(a) === capitalised(tool)),
	);
	return closestName(tool, styled, 2);
}

/**
 * The rules whose tool part names none of `toolNames` (the session's tools) nor a Claude Code tool: they
 * match nothing, which the user should hear once. Patterns are kept when they match a tool; `mcp__…`
 * names are left out (their servers may still be connecting).
 */
export function rulesMatchingNoTool(rules: readonly string[], toolNames: readonly string[]): string[] {
	const known = new Set([...KNOWN_RULE_TOOL_NAMES, ...toolNames].map((name) => name.toLowerCase()));
	return rules.filter((rule) => {
		const tool = ruleToolPart(rule);
		if (tool.toLowerCase().startsWith("mcp__")) return false;
		if (tool.includes("*")) {
			const expression = new RegExp(`^${tool.split("*").map(escapeRegExp).join(".*")}$`, "i");
			return !toolNames.some((name) => expression.test(name));
		}
		return !known.has(tool.toLowerCase());
	});
}

function escapeRegExp(part: string): string {
	return part.replace(/[.+?^${}()|[\]\\-]/g, "\\$&");
}
