import type { Extension, ExtensionWorkspace } from "@gantry/extensions";
import { CodingAgentError } from "../errors.js";
import { type CompiledPermissionRules, compilePermissionRules } from "../permissions/permission-decision.js";
import { PermissionHints } from "../permissions/permission-hints.js";
import { permissionModeOf } from "../permissions/permission-modes.js";
import { createPermissionPolicy } from "../permissions/permission-policy.js";
import { type SearchSkipPaths, searchSkipPaths } from "../permissions/search-skips.js";
import type { PermissionMode } from "../settings/types.js";
import type { AgentSessionOptions } from "./session-options.js";

/**
 * The permission side of a session (`session.permissions`): the mode its policy judges calls in, and where
 * PreToolUse hooks leave their decisions for that policy.
 */
export class SessionPermissions {
	/** The policy the session installs before the other extensions; undefined without `settings` or `permissionMode`. */
	readonly extension: Extension | undefined;
	/**
	 * Where PreToolUse hooks leave their `permissionDecision` for the session's policy (see
	 * `PermissionHints`); the handler that sets one must run before the policy's.
	 */
	readonly hints = new PermissionHints();
	#mode: PermissionMode;
	/** The deny and ask rules of `settings.permissions` (what folder searches leave unread). */
	readonly #rules: CompiledPermissionRules | undefined;

	/**
	 * From the session's options: rules and `defaultMode` of `settings.permissions`, `permissionMode` over
	 * the default mode. A session given neither has no policy of its own (its extensions decide, as before).
	 * Throws `invalid_option` for a malformed rule or an unknown mode.
	 */
	constructor(options: AgentSessionOptions) {
		const permissions = options.settings?.permissions;
		this.#mode = permissionModeOf(
			options.permissionMode ?? permissions?.defaultMode,
			"createAgentSession: `permissionMode`",
		);
		if (options.settings === undefined && options.permissionMode === undefined) return;
		this.#rules = compilePermissionRules([], permissions?.deny ?? [], permissions?.ask ?? []);
		this.extension = createPermissionPolicy({
			mode: () => this.#mode,
			permissions: { allow: permissions?.allow ?? [], deny: permissions?.deny ?? [], ask: permissions?.ask ?? [] },
			hints: this.hints,
			...(options.onAlwaysAllow === undefined ? {} : { onAlwaysAllow: options.onAlwaysAllow }),
			...(options.alwaysAllowScope === undefined ? {} : { alwaysAllowScope: options.alwaysAllowScope }),
		});
	}

	/**
	 * What a folder search by `toolName` (grep) in `workspace` leaves unread: the files the session's deny
	 * and ask rules on reads cover. Undefined when there are none.
	 */
	searchSkips(toolName: string, workspace: ExtensionWorkspace): SearchSkipPaths | undefined {
		if (this.#rules === undefined) return undefined;
		return searchSkipPaths(this.#rules, toolName, { cwd: workspace.cwd, workspace });
	}

	/** How calls no rule settles are decided now (see `AgentSessionOptions.permissionMode`). */
	get mode(): PermissionMode {
		return this.#mode;
	}

	/**
	 * Changes the mode for the calls that follow (Shift+Tab in the CLI). Throws `invalid_option` for an
	 * unknown mode, and for a session without a policy of its own (created without `settings` or
	 * `permissionMode`), which has no mode to change.
	 */
	setMode(mode: PermissionMode): void {
		const next = permissionModeOf(mode, "permissions.setMode");
		if (this.extension === undefined) {
			throw new CodingAgentError(
				"invalid_option",
				"permissions.setMode: this session has no permission policy of its own; create it with `settings` or `permissionMode`",
			);
		}
		this.#mode = next;
	}
}
