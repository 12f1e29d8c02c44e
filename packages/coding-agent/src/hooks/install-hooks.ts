import type { ExtensionRunner } from "@gantry/extensions";
import type { Workspace } from "@gantry/tools";
import type { PermissionHints } from "../permissions/permission-hints.js";
import type { HooksSettings } from "../settings/types.js";
import { SessionHooks } from "./session-hooks.js";
import { createToolHooksExtension } from "./tool-hooks.js";

/**
 * The session's hooks from `settings.hooks`, or undefined without any. Installs the tool hooks as the
 * runner's first `tool_call` and `tool_result` handlers, so call it before any other extension is added
 * (the session's permission policy included: it reads the `hints` the hooks leave). Throws
 * `invalid_option` for hooks settings that cannot run.
 */
export async function installSessionHooks(
	settings: HooksSettings | undefined,
	workspace: Workspace,
	runner: ExtensionRunner,
	hints: PermissionHints,
): Promise<SessionHooks | undefined> {
	if (settings === undefined) return undefined;
	const hooks = new SessionHooks(settings, workspace);
	if (hooks.hasToolHooks) await runner.add(createToolHooksExtension({ hooks, hints, workspace }), "settings hooks");
	return hooks;
}
