import { createLocalWorkspace } from "./local/local-workspace.js";
import type { Workspace } from "./types.js";

/** The workspace a tool factory was given: a string is a local folder (`createLocalWorkspace(string)`). */
export function workspaceOf(cwdOrWorkspace: string | Workspace): Workspace {
	if (typeof cwdOrWorkspace === "string") return createLocalWorkspace(cwdOrWorkspace);
	if (typeof cwdOrWorkspace !== "object" || cwdOrWorkspace === null || typeof cwdOrWorkspace.fs !== "object")
		throw new Error("Expected a folder path or a Workspace (createLocalWorkspace(cwd), createSshWorkspace(…)).");
	return cwdOrWorkspace;
}
