import type { ExtensionWorkspace } from "@gantry/extensions";
import {
	type CallLocations,
	type CallPathHost,
	globCovers,
	localCallPathHost,
	locateCallPath,
	workspaceCallPathHost,
} from "./path-glob.js";
import type { PermissionRule } from "./permission-rules.js";

/** Tells, for one searched folder, which of its files (relative paths, `/` separators) must stay unread. */
export type SearchSkipPaths = (root: string) => Promise<((relativePath: string) => boolean) | undefined>;

type PathRule = Extract<PermissionRule, { kind: "path" }>;

/** The path rules that judge what `toolName` reads: `Read(…)` and the tool's own (`Grep(…)`). */
function readRulesOf(rules: readonly PermissionRule[], toolName: string): PathRule[] {
	return rules.filter(
		(rule): rule is PathRule =>
			rule.kind === "path" && rule.scope.access === "read" && (!("tool" in rule.scope) || rule.scope.tool === toolName),
	);
}

/** The locations of `relative` below the searched folder's: as written and with the folder's links followed. */
function below(host: CallPathHost, folder: CallLocations, relative: string): CallLocations {
	const { join } = host.syntax;
	return {
		host,
		places: folder.places.map(({ written, real }) => ({
			written: { cwd: written.cwd, path: join(written.path, relative) },
			real: { cwd: real.cwd, path: join(real.path, relative) },
		})),
	};
}

/**
 * The files a folder search by `toolName` leaves unread: those a deny or ask rule on reads covers (an ask
 * rule cannot ask about each file a search meets, so it keeps them out too), judged as the policy judges a
 * call's own path — on the workspace's host, as written and with the searched folder's links followed
 * (the walk itself follows no link). Undefined when no such rule exists.
 */
export function searchSkipPaths(
	rules: { deny: readonly PermissionRule[]; ask?: readonly PermissionRule[] },
	toolName: string,
	place: { cwd: string; workspace?: ExtensionWorkspace },
): SearchSkipPaths | undefined {
	const covering = readRulesOf([...rules.deny, ...(rules.ask ?? [])], toolName);
	if (covering.length === 0) return undefined;
	return async (root) => {
		const host = place.workspace ? workspaceCallPathHost(place.workspace) : localCallPathHost(place.cwd);
		const folder = await locateCallPath(host, root);
		return (relative) => {
			const located = below(host, folder, relative);
			return covering.some((rule) => globCovers(rule.pattern, located, false));
		};
	};
}
