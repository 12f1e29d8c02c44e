import type { FilesystemPathEntry } from "@anthropic-ai/sandbox-runtime";
import type { Steps } from "@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js";

/**
 * sandbox-runtime's Linux modules on their own, without its `SandboxManager`. The manager's module imports
 * the proxy, the TLS-terminating proxy and its certificate code (node-forge) up front: most of the
 * library's load time, all of it useless to a workspace that allows no host, which needs no proxy. Such a
 * workspace's profile is built here from the same modules the manager uses on Linux (its bubblewrap wrapper,
 * its read and write list resolution, its glob expansion), given the lists the way the manager gives them
 * for a configuration with no credentials, no proxy and no violation monitor — which is what Gantry's is.
 * The package is pinned to one version (deep imports resolve: it has no exports map).
 */

const linuxModules = () =>
	Promise.all([
		import("@anthropic-ai/sandbox-runtime/dist/sandbox/linux-sandbox-utils.js"),
		import("@anthropic-ai/sandbox-runtime/dist/sandbox/path-entries.js"),
		import("@anthropic-ai/sandbox-runtime/dist/sandbox/sandbox-utils.js"),
		import("@anthropic-ai/sandbox-runtime/dist/sandbox/read-deny-glob.js"),
	]).then(([linux, entries, utilities, readDenyGlob]) => ({ linux, entries, utilities, readDenyGlob }));

export type LinuxModules = Awaited<ReturnType<typeof linuxModules>>;

let loading: Promise<LinuxModules> | undefined;

/** Loads the Linux modules once per process (a failed load is tried again by the next call). */
export function loadLinuxModules(): Promise<LinuxModules> {
	loading ??= linuxModules();
	const attempt = loading;
	attempt.catch(() => {
		if (loading === attempt) loading = undefined;
	});
	return attempt;
}

/**
 * What sandbox-runtime's dependency check refuses to start without on Linux, beyond the programs
 * `checkAvailability` found: root without the capability bubblewrap needs to map it. Its warnings (an old
 * bubblewrap, no seccomp helper) are left out: they cost a blocking `bwrap --version` and Gantry starts
 * either way. Undefined when nothing is missing.
 */
export function linuxDependencyError(modules: LinuxModules, bwrapPath: string): string | undefined {
	const { linux } = modules;
	const error = linux.uid0SandboxError({
		euid: process.geteuid?.(),
		hasSetfcap: linux.processHasBoundingCapability(linux.CAP_SETFCAP),
		bwrap: bwrapPath,
	});
	return error ?? undefined;
}

/** The lists a profile is built from, as sandbox-runtime takes them. */
export interface LinuxFilesystem {
	allowWrite: FilesystemPathEntry[];
	denyWrite: FilesystemPathEntry[];
	denyRead: FilesystemPathEntry[];
	allowRead: FilesystemPathEntry[];
}

/** What `wrapWithoutNetwork` wraps. */
export interface LinuxWrapInput {
	command: string;
	bashPath: string;
	bwrapPath: string;
	socatPath: string;
	filesystem: LinuxFilesystem;
	/** bubblewrap loads Gantry's seccomp filter: sandbox-runtime's helper is not put in front of the command. */
	allowAllUnixSockets: boolean;
	commandId: string;
}

/** How often a wrap starts over when this process changed its working folder during its scan. */
const ATTEMPTS = 3;

/**
 * sandbox-runtime's bubblewrap invocation for `command` with no network configuration (no proxy, no
 * relays), the filesystem lists resolved as its manager resolves them on Linux: a trailing `/**` dropped,
 * read globs expanded to the paths they match, write globs that name no path left out, marked entries kept
 * literal, and its default write paths (those no read deny covers) allowed.
 */
export async function wrapWithoutNetwork(modules: LinuxModules, input: LinuxWrapInput): Promise<string> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await wrapOnce(modules, input);
		} catch (error) {
			if (!(error instanceof modules.linux.WorkingDirectoryChanged) || attempt >= ATTEMPTS) throw error;
		}
	}
}

async function wrapOnce(modules: LinuxModules, input: LinuxWrapInput): Promise<string> {
	const { linux, entries, utilities, readDenyGlob } = modules;
	const { filesystem } = input;
	// sandbox-runtime's own default write paths, less those a read deny covers.
	const readRules = entries.readRulesOf(filesystem.denyRead, filesystem.allowRead, []);
	const writeConfig = {
		allowOnly: [
			...utilities.getDefaultWritePaths({
				denyRead: readRules.denyRead,
				...(readRules.allowRead ? { allowRead: readRules.allowRead } : {}),
			}),
			...concreteWrites(modules, filesystem.allowWrite, "allow"),
		],
		denyWithinAllow: concreteWrites(modules, filesystem.denyWrite, "deny"),
		...entries.literalWriteLists(filesystem.allowWrite, filesystem.denyWrite),
	};
	const allowWithinDeny = await utilities.finishInTurns(
		resolveReadEntries(modules, filesystem.allowRead, "allow", function* (pattern, anchor) {
			return (yield* utilities.walkGlobPatternSteps(pattern, anchor === undefined ? {} : { anchor })).matches;
		}),
	);
	const reExposed = entries.reExposedBy(allowWithinDeny, filesystem.allowRead, writeConfig);
	const unlistable = new Set<string>();
	const listings = new Map();
	const denyOnly = await utilities.finishInTurns(
		resolveReadEntries(modules, filesystem.denyRead, "deny", (pattern, anchor) =>
			readDenyGlob.expandReadDenyGlobLinuxSteps(pattern, reExposed, unlistable, {
				...(anchor === undefined ? {} : { anchor }),
				listings,
			}),
		),
	);
	listings.clear();
	return linux.wrapCommandWithSandboxLinux({
		command: input.command,
		commandId: input.commandId,
		needsNetworkRestriction: false,
		readConfig: {
			denyOnly,
			allowWithinDeny,
			unlistableDenyDirs: [...unlistable],
			...entries.literalReadLists(filesystem.denyRead, filesystem.allowRead),
		},
		writeConfig,
		allowAllUnixSockets: input.allowAllUnixSockets,
		binShell: input.bashPath,
		bwrapPath: input.bwrapPath,
		socatPath: input.socatPath,
	});
}

type ExpandGlob = (pattern: string, anchor?: string) => Steps<string[]>;

/** Write entries as bubblewrap takes them: names only (a glob that names no path cannot be bound). */
function concreteWrites(modules: LinuxModules, list: FilesystemPathEntry[], kind: "allow" | "deny"): string[] {
	const { entries, utilities } = modules;
	return entries
		.spelledOf(list)
		.map((spelling) => utilities.removeTrailingGlobSuffix(spelling))
		.filter((spelling) => !utilities.containsGlobChars(spelling) || entries.hasNameReading(spelling, kind));
}

/** Read entries as bubblewrap takes them: each glob replaced by the paths it matches (and its other readings). */
function* resolveReadEntries(
	modules: LinuxModules,
	list: FilesystemPathEntry[],
	kind: "allow" | "deny",
	expandGlob: ExpandGlob,
): Steps<string[]> {
	const { entries, utilities } = modules;
	const resolved = new Set<string>();
	for (const spelling of entries.spelledOf(list)) {
		const stripped = utilities.removeTrailingGlobSuffix(spelling);
		if (!utilities.containsGlobChars(stripped)) {
			resolved.add(stripped);
			continue;
		}
		for (const found of yield* entries.withOtherReadings(spelling, stripped, kind, expandGlob)) resolved.add(found);
	}
	return [...resolved];
}
