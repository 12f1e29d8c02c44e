import type { ExtensionWorkspace } from "@gantry/extensions";
import { builtinCallPaths } from "./call-paths.js";
import {
	type CallLocations,
	type CallPathHost,
	globCovers,
	localCallPathHost,
	locateCallPath,
	workspaceCallPathHost,
} from "./path-glob.js";
import type { PermissionRule } from "./permission-rules.js";

/** A path rule: a glob and the accesses it judges. */
type PathRule = Extract<PermissionRule, { kind: "path" }>;

/** What the policy knows of the files a call touches. */
export interface CallAccess {
	/** Paths read and written (builtins), or why they cannot be told. */
	paths: { reads: string[]; writes: string[] } | { unknown: string };
	/** The `path` argument of a tool Gantry knows no paths of (an extension's or MCP tool's own path rules judge it). */
	selfPath?: string;
}

/** The accesses of a call of `toolName` with `input`; `builtin` when the tool registered is Gantry's own. */
export function callAccessOf(toolName: string, input: Record<string, unknown>, builtin: boolean): CallAccess {
	const known = builtin ? builtinCallPaths(toolName, input) : undefined;
	if (known !== undefined) return { paths: known };
	const path = typeof input.path === "string" ? input.path : undefined;
	return { paths: { reads: [], writes: [] }, ...(path === undefined ? {} : { selfPath: path }) };
}

/** Locates each path a call names once, on the call's host (its home, links, cwd). */
export class CallPlaces {
	readonly host: CallPathHost;
	readonly #located = new Map<string, Promise<CallLocations>>();

	constructor(cwd: string, workspace: ExtensionWorkspace | undefined) {
		this.host = workspace ? workspaceCallPathHost(workspace) : localCallPathHost(cwd);
	}

	locate(typed: string): Promise<CallLocations> {
		let located = this.#located.get(typed);
		if (located === undefined) {
			located = locateCallPath(this.host, typed);
			this.#located.set(typed, located);
		}
		return located;
	}
}

/** The typed paths a path rule judges in this call (none when it does not apply to the call). */
export function pathsJudgedBy(rule: PathRule, toolName: string, access: CallAccess): string[] {
	const { scope } = rule;
	if (scope.access === "self") {
		return access.selfPath !== undefined && rule.matchesTool(toolName) ? [access.selfPath] : [];
	}
	if ("unknown" in access.paths) return [];
	if (scope.access === "write") return access.paths.writes;
	if ("tool" in scope && scope.tool !== toolName) return [];
	return access.paths.reads;
}

/** Whether a path rule's scope would judge some path of this call, were its paths known. */
export function mightJudge(rule: PathRule, toolName: string, access: CallAccess): boolean {
	if (!("unknown" in access.paths)) return pathsJudgedBy(rule, toolName, access).length > 0;
	const { scope } = rule;
	if (scope.access === "self") return false;
	return scope.access === "write" || !("tool" in scope) || scope.tool === toolName;
}

/** Whether the rule covers any path it judges in this call (deny and ask rules). */
export async function coversAny(rule: PathRule, toolName: string, access: CallAccess, places: CallPlaces) {
	for (const typed of pathsJudgedBy(rule, toolName, access)) {
		if (globCovers(rule.pattern, await places.locate(typed), false)) return true;
	}
	return false;
}

/** Whether the rules cover every path of `typed`, as written and with links followed (allow rules). */
export async function coverAll(
	rules: readonly PathRule[],
	typed: readonly string[],
	places: CallPlaces,
): Promise<PathRule[] | undefined> {
	if (typed.length === 0) return undefined;
	const used: PathRule[] = [];
	for (const path of typed) {
		const locations = await places.locate(path);
		const rule = rules.find((candidate) => globCovers(candidate.pattern, locations, true));
		if (rule === undefined) return undefined;
		if (!used.includes(rule)) used.push(rule);
	}
	return used;
}
