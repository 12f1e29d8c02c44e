import { homedir } from "node:os";
import path from "node:path";
import { type FilesystemLists, type PathEntry, PathPolicy } from "./path-policy.js";
import { fingerprintOf } from "./profile.js";
import { protectedSettingsPattern, protectedWritePaths } from "./protected-paths.js";
import type { ResolvedSandboxSettings } from "./resolve-settings.js";

/** Paths a deny rule of the permission settings adds to the sandbox's lists, and the rule it came from. */
export interface RuleDeny {
	/** Absolute path or absolute glob. */
	path: string;
	/** For messages, e.g. `the deny rule Read(.env)`. */
	source: string;
}

/** Everything the lists are made from. */
export interface ListInputs {
	cwd: string;
	home: string;
	/** The sandbox's own temp folder (writable). */
	tempDir: string;
	settings: ResolvedSandboxSettings;
	ruleDenyRead: RuleDeny[];
	ruleDenyWrite: RuleDeny[];
	/** Folders the file tools' own output files go to: writable for the file system, not for commands. */
	outputFolders: string[];
	/** Folders no command may write whatever the lists say (the sandbox's seccomp filter). */
	internalFolders: string[];
}

/** sandbox-runtime's own default write paths, denied so that only the working and temp folders are writable. */
function runtimeDefaultWrites(home: string): string[] {
	return ["/tmp/claude", "/private/tmp/claude", path.join(home, ".npm", "_logs"), path.join(home, ".claude", "debug")];
}

/** The lists as they are now (the protected names depend on what is on disk) and their fingerprint. */
export interface CurrentLists {
	/** For sandbox-runtime: the lists commands are held to. */
	lists: FilesystemLists;
	/** For the file tools: the same, plus the output folders and the `.gantry/settings*.json` pattern. */
	policy: PathPolicy;
	fingerprint: string;
}

/** Computes the lists for a workspace; remembers the last policy while the fingerprint stays the same. */
export function listMaker(inputs: ListInputs): () => CurrentLists {
	let last: CurrentLists | undefined;
	const literal =
		(source: string) =>
		(entry: string): PathEntry => ({ path: entry, source, literal: true });
	const fromSettings =
		(source: string) =>
		(entry: string): PathEntry => ({ path: entry, source });
	const { cwd, tempDir, settings } = inputs;
	// The real home folder too: sandbox-runtime's defaults are under this process's home.
	const homes = [...new Set([inputs.home, homedir()])];
	return () => {
		const protectedPaths = protectedWritePaths(cwd, inputs.home);
		const denyWrite: PathEntry[] = [
			...protectedPaths,
			...inputs.internalFolders.map(literal("the sandbox's own files")),
			...homes.flatMap(runtimeDefaultWrites).map(literal("the sandbox's protected files")),
			...settings.denyWrite.map(fromSettings("sandbox.filesystem.denyWrite")),
			...inputs.ruleDenyWrite.map((rule) => ({ path: rule.path, source: rule.source })),
		];
		const fingerprint = fingerprintOf(denyWrite, protectedPaths.map((entry) => entry.path).join("\n"));
		if (last?.fingerprint === fingerprint) return last;
		const lists: FilesystemLists = {
			writable: [
				literal("the working folder")(cwd),
				literal("the session's temp folder")(tempDir),
				...settings.allowWrite.map(fromSettings("sandbox.filesystem.allowWrite")),
			],
			denyWrite,
			denyRead: [
				...settings.denyRead.map(fromSettings("sandbox.filesystem.denyRead")),
				...inputs.ruleDenyRead.map((rule) => ({ path: rule.path, source: rule.source })),
			],
			allowRead: settings.allowRead.map(fromSettings("sandbox.filesystem.allowRead")),
		};
		const policy = new PathPolicy({
			...lists,
			writable: [...lists.writable, ...inputs.outputFolders.map(literal("the tools' output folder"))],
			denyWrite: [...lists.denyWrite, protectedSettingsPattern(cwd)],
		});
		last = { lists, policy, fingerprint };
		return last;
	};
}
