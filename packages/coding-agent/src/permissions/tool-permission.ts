import type { ToolAnnotations } from "@gantry/extensions";
import type { PermissionMode, RuleSource } from "../settings/types.js";
import type { CompiledPermissionRules } from "./permission-decision.js";
import { type PermissionPolicyOptions, permissionRulesOf, policyModeGetter } from "./permission-policy.js";
import type { PermissionRule } from "./permission-rules.js";
import { classifyTool } from "./tool-class.js";
import { EDIT_TOOLS, READ_TOOLS } from "./tool-names.js";

/** How the policy treats a tool before any call: what decides, and which rules depend on the arguments. */
export interface ToolPermission {
	/** `"allow"`: runs without asking; `"deny"`: always blocked; `"ask"`: asks (blocked without a UI). */
	decision: "allow" | "deny" | "ask";
	/**
	 * What decides: the rule's text, `"read-only"`, a mode (`"plan mode"`, `"bypassPermissions mode"`,
	 * `"acceptEdits mode"`, `"dontAsk mode"`) or `"may change things"`.
	 */
	decidedBy: string;
	/** The file (or option) the deciding rule or mode came from, when known. */
	source?: string;
	/** The mode the tool is judged in. */
	mode?: PermissionMode;
	/** Command and path rules that can change the decision for some calls, e.g. `bash(npm test:*)`. */
	conditional: { allow: string[]; deny: string[]; ask?: string[] };
}

/** Where rules and the mode came from, as `loadSettings` tells it (`ruleSources`, `defaultModeSource`). */
export interface PermissionOrigins {
	ruleSources?: readonly RuleSource[];
	/** Where the mode came from: a settings file, `--permission-mode`, `--yes`. */
	modeSource?: string;
}

/** Whether a command or path rule can decide some calls of the tool. */
function appliesToCalls(rule: PermissionRule, tool: { name: string; source?: string }): boolean {
	if (rule.kind === "command") return rule.matchesTool(tool.name);
	if (rule.kind !== "path") return false;
	const builtin = (tool.source ?? "builtin") === "builtin";
	const { scope } = rule;
	if (scope.access === "self") return !builtin && rule.matchesTool(tool.name);
	if (!builtin) return false;
	if (scope.access === "write") return EDIT_TOOLS.includes(tool.name);
	if ("tool" in scope) return scope.tool === tool.name;
	return READ_TOOLS.includes(tool.name) || tool.name === "edit" || tool.name === "apply_patch";
}

/**
 * Which rule or mode decides calls of a tool under these policy options (for listings such as `gantry
 * tools`), and the file it came from when `origins` says; rules on commands and paths are listed as
 * conditional. Throws `invalid_option` for a malformed rule or mode.
 */
export function explainToolPermission(
	tool: { name: string; annotations?: ToolAnnotations; source?: string },
	options: PermissionPolicyOptions = {},
	origins: PermissionOrigins = {},
): ToolPermission {
	const rules: CompiledPermissionRules = permissionRulesOf(options);
	const mode = policyModeGetter(options.mode)();
	const named = (list: readonly PermissionRule[] | undefined) =>
		(list ?? []).filter((rule) => rule.matchesTool(tool.name));
	const conditional = (list: readonly PermissionRule[] | undefined) =>
		(list ?? []).filter((rule) => appliesToCalls(rule, tool)).map((rule) => rule.text);
	const deny = conditional(rules.deny);
	const ask = conditional(rules.ask);
	const allow = conditional(rules.allow);
	const fromFile = (list: RuleSource["list"], rule: string) =>
		origins.ruleSources?.find((source) => source.list === list && source.rule === rule)?.file;
	const decided = (
		decision: ToolPermission["decision"],
		decidedBy: string,
		source: string | undefined,
		kept: ToolPermission["conditional"],
	): ToolPermission => ({
		decision,
		decidedBy,
		...(source === undefined ? {} : { source }),
		mode,
		conditional: kept,
	});
	const byMode = (decision: ToolPermission["decision"], kept: ToolPermission["conditional"]) =>
		decided(decision, `${mode} mode`, origins.modeSource, kept);

	const deniedTool = named(rules.deny).find((rule) => rule.kind === "tool");
	if (deniedTool) return decided("deny", deniedTool.text, fromFile("deny", deniedTool.text), { allow: [], deny: [] });
	const readOnly = classifyTool(tool.annotations) === "read-only";
	if (mode === "plan" && !readOnly) return byMode("deny", { allow: [], deny: [] });
	const askedTool = named(rules.ask).find((rule) => rule.kind === "tool");
	if (askedTool) {
		const decision = mode === "dontAsk" ? "deny" : "ask";
		return decided(decision, askedTool.text, fromFile("ask", askedTool.text), { allow: [], deny });
	}
	if (mode === "bypassPermissions") return byMode("allow", { allow: [], deny, ask });
	const allowedTool = named(rules.allow).find((rule) => rule.kind === "tool");
	if (allowedTool) {
		return decided("allow", allowedTool.text, fromFile("allow", allowedTool.text), { allow: [], deny, ask });
	}
	const builtin = (tool.source ?? "builtin") === "builtin";
	if (mode === "acceptEdits" && builtin && EDIT_TOOLS.includes(tool.name))
		return byMode("allow", { allow: [], deny, ask });
	if (readOnly) return decided("allow", "read-only", undefined, { allow: [], deny, ask });
	if (mode === "dontAsk") return byMode("deny", { allow, deny, ask });
	return decided("ask", "may change things", undefined, { allow, deny, ask });
}
