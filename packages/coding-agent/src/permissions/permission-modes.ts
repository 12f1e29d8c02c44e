import { CodingAgentError } from "../errors.js";
import { didYouMean } from "../settings/did-you-mean.js";
import { PERMISSION_MODES } from "../settings/settings-keys.js";
import type { PermissionMode } from "../settings/types.js";
import type { CallLocations } from "./path-glob.js";

/** The mode names the policy also takes: the CLI's old `"ask"` (= `default`) and `"yes"` (= `bypassPermissions`). */
export type PolicyModeName = PermissionMode | "ask" | "yes";

/** The permission mode a name means; throws `invalid_option` with a did-you-mean for an unknown name. */
export function permissionModeOf(name: PolicyModeName | undefined, where = "permission mode"): PermissionMode {
	if (name === undefined || name === "ask") return "default";
	if (name === "yes") return "bypassPermissions";
	if ((PERMISSION_MODES as readonly string[]).includes(name)) return name;
	throw new CodingAgentError(
		"invalid_option",
		`${where} must be one of ${PERMISSION_MODES.join(", ")} (got ${JSON.stringify(name)})${didYouMean(String(name), PERMISSION_MODES)}`,
	);
}

/** How restrictive a mode is, for telling a project's `defaultMode` that tightens from one that loosens. */
const STRICTNESS: Record<PermissionMode, number> = {
	bypassPermissions: 0,
	acceptEdits: 1,
	default: 2,
	dontAsk: 3,
	plan: 4,
};

/** Whether `mode` lets no more run without asking than `than` does. */
export function isAtLeastAsStrict(mode: PermissionMode, than: PermissionMode): boolean {
	return STRICTNESS[mode] >= STRICTNESS[than];
}

/** The modes Shift+Tab cycles through in interactive mode, in order. */
export const CYCLED_MODES: readonly PermissionMode[] = ["default", "acceptEdits", "plan"];

/** The mode after `mode` in the Shift+Tab cycle (a mode outside it goes back to `default`). */
export function nextPermissionMode(mode: PermissionMode): PermissionMode {
	const index = CYCLED_MODES.indexOf(mode);
	return CYCLED_MODES[(index + 1) % CYCLED_MODES.length] as PermissionMode;
}

/**
 * Names that `acceptEdits` never writes without asking, wherever they are in the project: what runs code
 * on its own later (git hooks and config, editor tasks, direnv) or changes what Gantry allows.
 */
const PROTECTED_NAMES = new Set([".git", ".gantry", ".claude", ".vscode", ".idea", ".mcp.json", ".envrc"]);

/** Whether every place the locations name is inside the project folder (as written and with links followed). */
export function isInsideProject(locations: CallLocations): boolean {
	const { relative, isAbsolute } = locations.host.syntax;
	return locations.places.every((place) =>
		[place.written, place.real].every((view) => {
			const inside = relative(view.cwd, view.path);
			return inside !== "" && !inside.startsWith("..") && !isAbsolute(inside);
		}),
	);
}

/** Whether a place the locations name is, or is inside, a protected name (see `PROTECTED_NAMES`). */
export function isProtectedPath(locations: CallLocations): boolean {
	const { relative, sep } = locations.host.syntax;
	return locations.places.some((place) =>
		[place.written, place.real].some((view) =>
			relative(view.cwd, view.path)
				.split(sep)
				.some((segment) => PROTECTED_NAMES.has(segment)),
		),
	);
}
