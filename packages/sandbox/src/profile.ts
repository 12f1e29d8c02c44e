import { randomBytes } from "node:crypto";
import { existsSync, lstatSync } from "node:fs";
import path from "node:path";
import type { FilesystemPathEntry, SandboxRuntimeConfig } from "@anthropic-ai/sandbox-runtime";
import { type LinuxFilesystem, type LinuxModules, type LinuxWrapInput, wrapWithoutNetwork } from "./linux-runtime.js";
import type { PathEntry } from "./path-policy.js";
import { buildWithConfig, type Started } from "./runtime.js";
import { shellQuote, splitInvocation } from "./shell-words.js";

/**
 * A workspace's sandbox profile: the bubblewrap invocation sandbox-runtime builds for it, built once and
 * reused for every command (building one walks the deny lists and starts two programs, about 15 ms; a
 * command's own start is a few ms). The command to run reaches the sandbox in `GANTRY_SANDBOX_EXEC`, which
 * the profile's own command reads, unsets and executes. A profile is rebuilt when what decides it on disk
 * changes (see `fingerprint`).
 */
export interface SandboxProfile {
	/**
	 * bubblewrap and its arguments. With `direct`, they end with `--` and the command's own argv follows;
	 * otherwise they end with sandbox-runtime's script, which reads the command from `GANTRY_SANDBOX_EXEC`.
	 */
	argv: string[];
	/** The command follows `argv` as it is: no shell inside the sandbox, no variable to carry it. */
	direct: boolean;
	/**
	 * When set, bubblewrap reads its seccomp filter from fd 3, opened on this file by the spawning processes
	 * (`inheritedFiles`, where they support it) or else by a shell in front of bubblewrap.
	 */
	seccompFilterPath?: string;
	/**
	 * The command must start inside the workspace's shared network namespace (see `network-relays.ts`): the
	 * profile has no network of its own and no relays.
	 */
	sharedNetwork: boolean;
	/** Paths bubblewrap creates as mount points on the host (they did not exist), deepest first. */
	placeholders: string[];
	/**
	 * The host paths the invocation binds (bubblewrap refuses to start when one is gone): a folder of
	 * `allowWrite` removed from outside, or a placeholder another sandbox made while the profile was built.
	 */
	sources: string[];
	/** The state of the disk the profile was built for. */
	fingerprint: string;
}

/** The environment variable that carries the command (its argv, shell-quoted) into the sandbox. */
export const EXEC_VARIABLE = "GANTRY_SANDBOX_EXEC";

/** What a profile is built from. */
export interface ProfileInput {
	bashPath: string;
	writable: PathEntry[];
	denyWrite: PathEntry[];
	denyRead: PathEntry[];
	allowRead: PathEntry[];
	/** Hosts commands may reach through the proxy; empty: no network namespace beyond loopback. */
	allowedDomains: string[];
	/** The per-workspace key sandbox-runtime reports this workspace's refused connections under. */
	commandId: string;
	/** What violations of this workspace's commands are reported under. */
	commandText: string;
	/** TMPDIR inside the sandbox: the workspace's temp folder, which commands may write. */
	tempDir: string;
	/**
	 * The seccomp filter file (no Unix or VM sockets, no io_uring), when this machine has one: bubblewrap
	 * loads it for commands with no network, and for commands with an allow list when `sharedRelays` is set.
	 */
	seccompFilterPath?: string;
	/**
	 * The workspace's relays run once in a shared network namespace: the profile then leaves out
	 * sandbox-runtime's per-command relays. Their host-side bridge sockets are read from the manager once its
	 * wrap has waited for its network, so a build may start while that network is still starting.
	 */
	sharedRelays?: boolean;
}

function entry(item: PathEntry): FilesystemPathEntry {
	return item.literal ? { path: item.path, literal: true } : item.path;
}

/** The command the profile runs inside the sandbox: the argv from `GANTRY_SANDBOX_EXEC`, with TMPDIR set. */
function innerCommand(tempDir: string): string {
	return [
		`__gantry_exec=$${EXEC_VARIABLE}`,
		`unset ${EXEC_VARIABLE}`,
		`export TMPDIR=${shellQuote(tempDir)}`,
		'eval "exec $__gantry_exec"',
	].join("; ");
}

const BIND_OPTIONS = new Set(["--bind", "--ro-bind", "--bind-try", "--ro-bind-try", "--dev-bind", "--dev-bind-try"]);
const TARGET_OPTIONS = new Set(["--tmpfs", "--dir", "--dev", "--proc"]);
const REQUIRED_BINDS = new Set(["--bind", "--ro-bind", "--dev-bind"]);

function exists(target: string): boolean {
	try {
		lstatSync(target);
		return true;
	} catch {
		return false;
	}
}

/** The mount targets of an invocation that do not exist yet, with their missing parents, deepest first. */
function missingTargets(argv: string[]): string[] {
	const missing = new Set<string>();
	// argv[0] is bubblewrap itself; its options follow.
	const [, ...options] = argv;
	for (const [index, option] of options.entries()) {
		if (option === "--") break;
		const target = BIND_OPTIONS.has(option)
			? options[index + 2]
			: TARGET_OPTIONS.has(option)
				? options[index + 1]
				: undefined;
		if (target === undefined || !path.isAbsolute(target)) continue;
		for (let current = target; current !== path.dirname(current) && !exists(current); current = path.dirname(current)) {
			missing.add(current);
		}
	}
	return [...missing].sort((a, b) => b.length - a.length);
}

/** The absolute source paths of an invocation's binds that must exist (not the `-try` ones). */
function bindSources(argv: string[]): string[] {
	const sources = new Set<string>();
	for (const [index, option] of argv.entries()) {
		if (option === "--") break;
		const source = REQUIRED_BINDS.has(option) ? argv[index + 1] : undefined;
		if (source !== undefined && path.isAbsolute(source)) sources.add(source);
	}
	return [...sources];
}

/** Whether every path the profile binds is still there: if not, bubblewrap would refuse every command. */
export function sourcesExist(profile: SandboxProfile): boolean {
	return profile.sources.every((source) => existsSync(source));
}

/** What the disk says about the paths a profile depends on: the kind of each literal deny path. */
export function fingerprintOf(denyWrite: PathEntry[], extra: string): string {
	const kinds = denyWrite
		.filter((item) => item.literal)
		.map((item) => {
			try {
				// Asked before every command: a missing path (the usual case) is answered without an exception.
				const stats = lstatSync(item.path, { throwIfNoEntry: false });
				if (stats === undefined) return "-";
				return stats.isDirectory() ? "d" : stats.isSymbolicLink() ? "l" : "f";
			} catch {
				return "-";
			}
		});
	return `${extra}|${kinds.join("")}`;
}

/**
 * Builds a profile with sandbox-runtime (its manager when hosts are allowed, its Linux modules alone when
 * none are): its filesystem arguments (the lists, its own denies, symlink and
 * rename protection), its proxy plumbing when hosts are allowed, and — when none are — `--unshare-net` with
 * no proxy at all, plus bubblewrap's own seccomp filter where this machine has one. With an allow list and
 * relays shared by the workspace, sandbox-runtime's proxy variables are kept and its per-command relays,
 * bridge mounts and seccomp helper give way to the shared namespace and bubblewrap's filter.
 */
export async function buildProfile(
	runtime: ProfileRuntime,
	input: ProfileInput,
	fingerprint: string,
): Promise<SandboxProfile> {
	const filesystem = {
		allowWrite: input.writable.map(entry),
		denyWrite: input.denyWrite.map(entry),
		denyRead: input.denyRead.map(entry),
		allowRead: input.allowRead.map(entry),
	};
	const networked = input.allowedDomains.length > 0;
	const sharedNetwork = networked && input.sharedRelays === true && input.seccompFilterPath !== undefined;
	const useFilter = (!networked || sharedNetwork) && input.seccompFilterPath !== undefined;
	const { wrapped, sockets } = networked
		? await wrapWithManager(runtime, input, filesystem, sharedNetwork)
		: await wrappedAlone(runtime.linux, {
				command: innerCommand(input.tempDir),
				bashPath: input.bashPath,
				bwrapPath: runtime.bwrapPath,
				socatPath: runtime.socatPath,
				filesystem,
				allowAllUnixSockets: useFilter,
				commandId: input.commandId,
			});
	const bwrap = runtime.bwrapPath;
	if (!wrapped.startsWith(`${bwrap} `) && !wrapped.startsWith(`${shellQuote(bwrap)} `)) {
		throw new Error(
			`sandbox-runtime built an invocation Gantry cannot run (it does not start with ${bwrap}; the profile may be too large for one command line): ${wrapped.slice(0, 200)}`,
		);
	}
	let words = await splitInvocation(input.bashPath, wrapped);
	if (words[0] !== bwrap) throw new Error(`sandbox-runtime's invocation starts with ${words[0]}, not ${bwrap}`);
	if (sharedNetwork) words = withoutOwnRelays(words, sockets);
	if (!networked) words.splice(1, 0, "--unshare-net");
	words = withoutReaper(words);
	if (useFilter) words.splice(1, 0, "--seccomp", "3");
	const argv = sharedNetwork
		? commandAfterSeparator(words, input)
		: useFilter
			? directInvocation(words, input)
			: undefined;
	return {
		argv: argv ?? words,
		direct: argv !== undefined,
		...(useFilter && input.seccompFilterPath ? { seccompFilterPath: input.seccompFilterPath } : {}),
		sharedNetwork,
		placeholders: missingTargets(words),
		sources: bindSources(words),
		fingerprint,
	};
}

/** What builds profiles: sandbox-runtime's Linux modules, and its manager once a workspace allows a host. */
export interface ProfileRuntime {
	bwrapPath: string;
	socatPath: string;
	linux: LinuxModules;
	/** Loaded only for a workspace with an allow list (it brings the proxy); see `runtime.ts`. */
	manager?: Started;
}

/** An invocation, and the proxy's host-side bridge sockets it was built with (none without a network). */
interface Wrapped {
	wrapped: string;
	sockets: string[];
}

async function wrappedAlone(modules: LinuxModules, input: LinuxWrapInput): Promise<Wrapped> {
	return { wrapped: await wrapWithoutNetwork(modules, input), sockets: [] };
}

/**
 * The manager's invocation for a workspace with an allow list: its proxy variables, and its relays and
 * seccomp helper unless the workspace's shared network replaces them (bubblewrap's filter then refuses Unix
 * sockets, so no helper is put in the sandbox). With the bridge sockets the wrap found once it had waited
 * for the network.
 */
function wrapWithManager(
	runtime: ProfileRuntime,
	input: ProfileInput,
	filesystem: LinuxFilesystem,
	sharedNetwork: boolean,
): Promise<Wrapped> {
	const { manager } = runtime;
	if (!manager) return Promise.reject(new Error("sandbox-runtime's manager is not started for an allow list"));
	return buildWithConfig(
		manager,
		(base): SandboxRuntimeConfig =>
			sharedNetwork ? { ...base, network: { ...base.network, allowAllUnixSockets: true } } : base,
		async (loaded) => {
			const wrapped = await loaded.wrapWithSandbox(
				innerCommand(input.tempDir),
				input.bashPath,
				{ filesystem },
				undefined,
				{
					commandId: input.commandId,
					commandText: input.commandText,
				},
			);
			const sockets = [loaded.getLinuxHttpSocketPath(), loaded.getLinuxSocksSocketPath()].filter(
				(socket): socket is string => socket !== undefined,
			);
			// A wrap whose network did not start has no bridges to leave to the shared relays.
			if (sharedNetwork && sockets.length === 0) throw new Error("sandbox-runtime's network did not start");
			return { wrapped, sockets };
		},
	);
}

/**
 * sandbox-runtime's networked invocation less what the shared namespace replaces: its `--unshare-net` (the
 * command joins the workspace's namespace instead) and its binds of the bridge sockets (the relays outside
 * the command's sandbox use them; with Unix sockets refused, the command could not). Throws when the
 * invocation is not the one this was written for, rather than run a command without its relays or filter.
 */
function withoutOwnRelays(words: string[], sockets: string[]): string[] {
	const end = words.lastIndexOf("--");
	const script = words.at(-1) ?? "";
	if (end < 0 || words.length - end !== 4 || !sockets.every((socket) => script.includes(`UNIX-CONNECT:${socket}`))) {
		throw new Error("sandbox-runtime's networked invocation does not end with the relays Gantry replaces");
	}
	const kept: string[] = [];
	let unshared = false;
	for (let index = 0; index < end; index++) {
		const word = words[index] as string;
		if (word === "--unshare-net") {
			unshared = true;
			continue;
		}
		if (word === "--bind" && sockets.includes(words[index + 1] as string) && words[index + 1] === words[index + 2]) {
			index += 2;
			continue;
		}
		kept.push(word);
	}
	if (!unshared) throw new Error("sandbox-runtime's networked invocation has no --unshare-net to replace");
	// Without its seccomp helper, only bubblewrap keeps a command from making a user namespace (in which the
	// write denies could be detached); a bubblewrap that cannot is left to the helper.
	if (!kept.includes("--disable-userns")) throw new Error("this bubblewrap cannot disable user namespaces");
	return [...kept, ...words.slice(end)];
}

/**
 * The invocation with the command as the first process of its PID namespace (`--as-pid-1`), as in a
 * container started without an init: bubblewrap then forks no reaper to be that first process, one process
 * start less per command (about 3 ms of the 15–20 a sandboxed command costs over an unsandboxed one). When
 * the command ends, the kernel ends whatever it left in the namespace, as it did when the reaper ended.
 * Only beside `--disable-userns`, which sandbox-runtime gives a bubblewrap of 0.8.0 or later with no seccomp
 * helper in front of the command: the one shape this was tried on.
 */
function withoutReaper(words: string[]): string[] {
	const end = words.lastIndexOf("--");
	const options = end < 0 ? words : words.slice(0, end);
	if (!options.includes("--unshare-pid") || !options.includes("--disable-userns") || options.includes("--as-pid-1"))
		return words;
	return [words[0] as string, "--as-pid-1", ...words.slice(1)];
}

/** The invocation up to its `--`, with TMPDIR set by bubblewrap: the command's own argv follows. */
function commandAfterSeparator(words: string[], input: ProfileInput): string[] {
	return [...words.slice(0, words.lastIndexOf("--")), "--setenv", "TMPDIR", input.tempDir, "--"];
}

/**
 * With bubblewrap loading the seccomp filter, sandbox-runtime's invocation ends with `-- <bash> -c <our
 * command>`: the command can follow `--` itself (bubblewrap finds it on PATH), with TMPDIR set by
 * bubblewrap, which saves two shells per command. Undefined when the invocation does not end that way.
 */
function directInvocation(words: string[], input: ProfileInput): string[] | undefined {
	const end = words.lastIndexOf("--");
	const tail = words.slice(end + 1);
	if (end < 0 || tail.length !== 3 || tail[1] !== "-c" || tail[2] !== innerCommand(input.tempDir)) return undefined;
	return commandAfterSeparator(words, input);
}

/** A fresh per-workspace key: 128 bits, as sandbox-runtime requires of a per-command allow list's id. */
export function newCommandId(): string {
	return randomBytes(16).toString("base64url");
}
