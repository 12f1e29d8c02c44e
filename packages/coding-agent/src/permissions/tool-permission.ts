import type { ToolAnnotations } from "@gantry/extensions";
import { type PermissionPolicyOptions, permissionRulesOf } from "./permission-policy.js";
import { classifyTool } from "./tool-class.js";

/** How the policy treats a tool before any call: what decides, and which rules depend on the arguments. */
export interface ToolPermission {
	/** `"allow"`: runs without asking; `"deny"`: always blocked; `"ask"`: asks (blocked without a UI). */
	decision: "allow" | "deny" | "ask";
	/** What decides: the rule's text, `"read-only"`, `"yes mode"` or `"may change things"`. */
	decidedBy: string;
	/** Command and path rules that can change the decision for some calls, e.g. `bash(npm test:*)`. */
	conditional: { allow: string[]; deny: string[] };
}

/**
 * Which rule decides calls of a tool under these policy options (for listings such as `gantry tools`);
 * rules on commands and paths are listed as conditional. Throws `invalid_option` for a malformed rule.
 */
export function explainToolPermission(
	tool: { name: string; annotations?: ToolAnnotations },
	options: PermissionPolicyOptions = {},
): ToolPermission {
	const rules = permissionRulesOf(options);
	const named = (list: typeof rules.allow) => list.filter((rule) => rule.matchesTool(tool.name));
	const deny = named(rules.deny);
	const allow = named(rules.allow);
	const conditional = {
		allow: allow.filter((rule) => rule.kind !== "tool").map((rule) => rule.text),
		deny: deny.filter((rule) => rule.kind !== "tool").map((rule) => rule.text),
	};
	const denied = deny.find((rule) => rule.kind === "tool");
	if (denied) return { decision: "deny", decidedBy: denied.text, conditional: { allow: [], deny: [] } };
	if (options.mode === "yes")
		return { decision: "allow", decidedBy: "yes mode", conditional: { allow: [], deny: conditional.deny } };
	const allowed = allow.find((rule) => rule.kind === "tool");
	if (allowed)
		return { decision: "allow", decidedBy: allowed.text, conditional: { allow: [], deny: conditional.deny } };
	if (classifyTool(tool.annotations) === "read-only") {
		return { decision: "allow", decidedBy: "read-only", conditional: { allow: [], deny: conditional.deny } };
	}
	return { decision: "ask", decidedBy: "may change things", conditional };
}
