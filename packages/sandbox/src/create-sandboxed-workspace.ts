import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { errorText } from "@gantry/ai";
import type { Workspace } from "@gantry/tools";
import { type Availability, findPrograms, probeBubblewrap } from "./availability.js";
import { type CommandLauncher, startCommandLauncher } from "./command-launcher.js";
import { checkDomainLists } from "./domain-check.js";
import { SandboxError } from "./errors.js";
import { excludingEntry } from "./excluded-commands.js";
import { linuxDependencyError, loadLinuxModules } from "./linux-runtime.js";
import { type NetworkRelays, relaysFor } from "./network-relays.js";
import { sandboxedCommandEnded, sandboxedCommandStarted } from "./placeholders.js";
import { buildProfile, newCommandId, type ProfileRuntime, type SandboxProfile, sourcesExist } from "./profile.js";
import { type ResolvedSandboxSettings, resolveSandboxSettings } from "./resolve-settings.js";
import { forgetWorkspace, setWorkspaceHosts, startNetwork, startRuntime } from "./runtime.js";
import { filteredGlob, sandboxedFileSystem } from "./sandboxed-file-system.js";
import { sandboxedProcesses, starterOf } from "./sandboxed-processes.js";
import {
	type CommandPlacement,
	registerSandboxedWorkspace,
	type SandboxedWorkspace,
	type SandboxStatus,
} from "./sandboxed-workspace.js";
import { noNetworkSeccompFilter } from "./seccomp-filter.js";
import type { SandboxSettings } from "./settings.js";
import { type CurrentLists, listMaker, type RuleDeny } from "./workspace-lists.js";

/** Options of `createSandboxedWorkspace` beyond the settings. */
export interface SandboxedWorkspaceOptions {
	/**
	 * Paths a deny rule of the permission settings keeps from being read (`Read(…)` rules): they join
	 * `filesystem.denyRead`, so they hold for anything a command does, as in Claude Code. Default none.
	 */
	denyRead?: RuleDeny[];
	/** Paths an `Edit(…)` deny rule keeps from being written: they join `filesystem.denyWrite`. Default none. */
	denyWrite?: RuleDeny[];
	/**
	 * Folders the tools' own output files go to (bash's full-output files kept with a CLI session): the file
	 * tools may write there, commands may not. Default none.
	 */
	outputFolders?: string[];
	/** `close()` also closes `inner` when it can be closed. Default true. */
	closeInner?: boolean;
}

/**
 * Wraps a local workspace in the OS sandbox: every process it spawns (bash, powershell, MCP stdio servers
 * started through it) runs under bubblewrap with `settings`' filesystem and network lists, and its `fs` —
 * what the file tools read and write through — is held to the same lists. Writes are allowed in the
 * working folder and a temp folder of the sandbox's own (the workspace's `tempDir`, also the commands'
 * TMPDIR) plus `filesystem.allowWrite`; `.git/hooks`, `.gantry/settings*.json`, `.mcp.json` and shell
 * start-up files are never written; no host is reachable unless `network.allowedDomains` lists it.
 *
 * When the sandbox cannot start here (not Linux, no bubblewrap or socat, no user namespaces),
 * `sandbox.active` is false with the reason and every spawn is refused — unless `failIfUnavailable` is
 * false, when commands run without it. Throws `SandboxError` `invalid_option` for a malformed setting (a
 * host included) and `not_local` for a workspace on another host.
 *
 * With an allow list, the promise resolves once the filesystem sandbox is ready and bubblewrap's probe
 * passed; sandbox-runtime's proxy, the relays and the networked profile start afterwards and sandboxed
 * commands wait for them. If they cannot start, `sandbox.active` turns false with the reason and every
 * command is refused, whatever `failIfUnavailable` says.
 *
 * @example
 * const workspace = await createSandboxedWorkspace(createLocalWorkspace(cwd), { enabled: true });
 * if (!workspace.sandbox.active) console.error(workspace.sandbox.reason);
 */
export async function createSandboxedWorkspace(
	inner: Workspace,
	settings: SandboxSettings,
	options: SandboxedWorkspaceOptions = {},
): Promise<SandboxedWorkspace> {
	if (!inner.isLocal) {
		throw new SandboxError(
			"not_local",
			`The OS sandbox wraps a workspace on this machine, and ${inner.label} is another host; its own isolation applies there. Leave sandbox.enabled off (and --sandbox out) for a remote workspace.`,
		);
	}
	const resolved = resolveSandboxSettings(settings, { cwd: inner.cwd, home: inner.home });
	// The Linux modules load while the folders are made, the programs looked up and bubblewrap probed; a
	// failed load is reported by `assemble`. The manager (an allow list's proxy) is loaded after set-up, in
	// the background: its evaluation would hold the thread set-up runs on for a few hundred milliseconds.
	if (resolved.enabled) loadLinuxModules().catch(() => undefined);
	// A malformed host is the settings' fault, reported now: the network starts after this returns.
	await checkDomainLists(resolved);
	const tempDir = await realpath(await mkdtemp(path.join(inner.tempDir, "gantry-sandbox-")));
	const privateDir = await realpath(await mkdtemp(path.join(inner.tempDir, "gantry-sandbox-private-")));
	const removeFolders = () =>
		Promise.all([tempDir, privateDir].map((folder) => rm(folder, { recursive: true, force: true })));
	try {
		return await assemble(inner, resolved, options, tempDir, privateDir, removeFolders);
	} catch (error) {
		await removeFolders();
		throw error;
	}
}

async function assemble(
	inner: Workspace,
	resolved: ResolvedSandboxSettings,
	options: SandboxedWorkspaceOptions,
	tempDir: string,
	privateDir: string,
	removeFolders: () => Promise<unknown>,
): Promise<SandboxedWorkspace> {
	const cwd = await realpath(inner.cwd).catch(() => inner.cwd);
	const lists = listMaker({
		cwd,
		home: inner.home,
		tempDir,
		settings: resolved,
		ruleDenyRead: options.denyRead ?? [],
		ruleDenyWrite: options.denyWrite ?? [],
		outputFolders: options.outputFolders ?? [],
		internalFolders: [privateDir],
	});
	const networked = resolved.allowedDomains.length > 0;
	const availability: Availability = resolved.enabled
		? await findPrograms(inner.processes)
		: { available: false, reason: "sandbox.enabled is not set" };
	// A real, empty sandbox; with no host allowed it runs while the first profile is built.
	const probing = availability.available
		? probeBubblewrap(availability.bwrapPath, availability.bashPath)
		: Promise.resolve(undefined);
	const status: SandboxStatus = availability.available
		? { active: true }
		: { active: false, reason: availability.reason };
	const commandId = newCommandId();
	const commandText = `gantry-sandbox:${commandId}`;
	const id = commandId;
	let runtime: ProfileRuntime | undefined;
	let profile: SandboxProfile | undefined;
	let building: Promise<SandboxProfile> | undefined;
	let seccompFilterPath: string | undefined;
	let relays: NetworkRelays | undefined;
	/** Starts commands inside the shared network with no nsenter each; until it runs, they enter it themselves. */
	let launching: Promise<CommandLauncher | undefined> | undefined;
	let launcher: CommandLauncher | undefined;
	/** Profiles leave the relays to the workspace's shared network (see `network-relays.ts`). */
	let sharedNetwork = false;

	const currentProfile = (current: CurrentLists): Promise<SandboxProfile> => {
		// Rebuilt when the disk it was built for changed, or a path it binds is gone.
		if (profile && profile.fingerprint === current.fingerprint && sourcesExist(profile))
			return Promise.resolve(profile);
		if (building) return building.then(() => currentProfile(lists()));
		if (!runtime || !availability.available) return Promise.reject(new Error("the sandbox is not active"));
		const attempt = buildProfile(
			runtime,
			{
				bashPath: availability.bashPath,
				...current.lists,
				allowedDomains: resolved.allowedDomains,
				commandId,
				commandText,
				tempDir,
				...(seccompFilterPath ? { seccompFilterPath } : {}),
				...(sharedNetwork ? { sharedRelays: true } : {}),
			},
			current.fingerprint,
		);
		building = attempt;
		return attempt.then(
			(built) => {
				building = undefined;
				profile = built;
				return built;
			},
			(error: unknown) => {
				building = undefined;
				throw error;
			},
		);
	};

	if (availability.available) {
		try {
			const { bwrapPath, socatPath } = availability;
			const filter = noNetworkSeccompFilter();
			const filterPath = path.join(privateDir, "sockets.bpf");
			const [linux] = await Promise.all([
				loadLinuxModules(),
				filter ? writeFile(filterPath, filter, { mode: 0o444 }) : undefined,
			]);
			if (filter) seccompFilterPath = filterPath;
			const missing = linuxDependencyError(linux, bwrapPath);
			if (missing !== undefined) throw new Error(`Sandbox dependencies not available: ${missing}`);
			runtime = { bwrapPath, socatPath, linux };
			if (networked) {
				// No proxy is started where bubblewrap cannot run; the rest of the network starts after set-up.
				const refused = await probing;
				if (refused !== undefined) throw new BubblewrapRefused(refused);
			} else {
				const [probed, built] = await Promise.allSettled([probing, currentProfile(lists())]);
				const refused = probed.status === "fulfilled" ? probed.value : errorText(probed.reason);
				if (refused !== undefined) throw new BubblewrapRefused(refused);
				if (built.status === "rejected") throw built.reason;
			}
		} catch (error) {
			if (isConfigurationError(error)) {
				throw new SandboxError("invalid_option", `The sandbox settings were refused: ${errorText(error)}`, {
					cause: error,
				});
			}
			status.active = false;
			status.reason =
				error instanceof BubblewrapRefused ? error.message : `sandbox-runtime could not start: ${errorText(error)}`;
			runtime = undefined;
		}
	}

	let closed = false;
	/** The background start of an allow list's network failed (or was cut short by `close`). */
	let networkFailed = false;
	/**
	 * An allow list's network — sandbox-runtime's manager and proxy, the workspace's relays and its networked
	 * profile — starts once the workspace is returned; every sandboxed command waits for it. Never rejects:
	 * a failure leaves the sandbox inactive with the reason, and commands refused.
	 */
	const startNetworkInBackground = async (base: ProfileRuntime, nsenterPath: string | undefined): Promise<void> => {
		const stopIfClosed = () => {
			if (closed) throw new Error("the workspace was closed while its network started");
		};
		try {
			const manager = await startRuntime(base.bwrapPath, base.socatPath);
			stopIfClosed();
			base.manager = manager;
			await setWorkspaceHosts(manager, id, resolved.allowedDomains, resolved.deniedDomains);
			sharedNetwork = nsenterPath !== undefined && seccompFilterPath !== undefined;
			const started = startNetwork(manager, id);
			// Queued right behind the proxy's start: the build walks the disk while the bridges start, and the
			// bubblewrap option probe the wrap would make on its way is made in that wait too.
			const firstBuild = currentProfile(lists());
			firstBuild.catch(() => undefined);
			setTimeout(() => base.linux.linux.bwrapCanDisableUserns(base.bwrapPath), 0);
			await started;
			stopIfClosed();
			// The relays start as soon as the bridge sockets exist, while the build finishes.
			const [shared, built] = await Promise.allSettled([
				nsenterPath && sharedNetwork
					? relaysFor(
							{ http: manager.manager.getLinuxHttpSocketPath(), socks: manager.manager.getLinuxSocksSocketPath() },
							{ bwrapPath: base.bwrapPath, socatPath: manager.socatPath, nsenterPath },
						)
					: undefined,
				firstBuild,
			]);
			relays = shared.status === "fulfilled" ? shared.value : undefined;
			stopIfClosed();
			if (built.status === "rejected" && !sharedNetwork) throw built.reason;
			if (!relays || built.status === "rejected") {
				// sandbox-runtime's own relays and seccomp helper in every command, as it makes them.
				relays?.close();
				relays = undefined;
				sharedNetwork = false;
				profile = undefined;
				await currentProfile(lists());
				stopIfClosed();
			} else {
				const enter = relays.enter();
				launching = startCommandLauncher({ inner: inner.processes, enter, cwd, folder: privateDir }).then(
					(started) => (launcher = started),
					() => undefined,
				);
			}
		} catch (error) {
			relays?.close();
			relays = undefined;
			sharedNetwork = false;
			networkFailed = true;
			if (base.manager) await forgetWorkspace(base.manager, id).catch(() => undefined);
			status.active = false;
			status.reason = `sandbox-runtime could not start the sandbox's network: ${errorText(error)}`;
			runtime = undefined;
		}
	};
	const networkStart =
		networked && status.active && runtime && availability.available
			? startNetworkInBackground(runtime, availability.nsenterPath)
			: undefined;
	/**
	 * Why commands are refused now, if they are: the sandbox is not active and fails closed, or an allow
	 * list's network failed to start after set-up — then whatever `failIfUnavailable` says, since commands
	 * may have been let through by the permission checks as sandboxed.
	 */
	const refusal = (): string | undefined => {
		if (status.active) return undefined;
		if (networkFailed) {
			return `The OS sandbox stopped (${status.reason}), so commands are refused rather than run without it. Fix the cause and start a new session (or workspace).`;
		}
		if (resolved.enabled && resolved.failIfUnavailable) {
			return `The OS sandbox is not available (${status.reason}), and sandbox.failIfUnavailable is on, so commands are refused rather than run without it. Fix the cause, or set sandbox.failIfUnavailable to false to run commands unsandboxed.`;
		}
		return undefined;
	};
	/** Resolves once a sandboxed command can start; rejects with the refusal when the sandbox stopped. */
	const ready = async (): Promise<void> => {
		await networkStart;
		const refused = refusal();
		if (refused !== undefined) throw new Error(refused);
	};
	const enterNetwork = () => (relays ? relays.enter() : []);
	// Not once the relays ended: a command then enters (and is refused) as it would without the launcher.
	const currentLauncher = () => (launcher?.alive() && relays?.alive() ? launcher : undefined);

	const place = (command: string, unsandboxed: boolean): CommandPlacement => {
		if (!status.active) return { sandboxed: false, reason: `the sandbox is not active (${status.reason})` };
		if (unsandboxed && resolved.allowUnsandboxedCommands) {
			return { sandboxed: false, reason: "the call asked to run outside the sandbox (dangerouslyDisableSandbox)" };
		}
		const entry = excludingEntry(command, resolved.excludedCommands);
		if (entry !== undefined) return { sandboxed: false, reason: `sandbox.excludedCommands lists ${entry}` };
		return { sandboxed: true, reason: "runs in the OS sandbox" };
	};

	const workspace: SandboxedWorkspace = {
		cwd: inner.cwd,
		home: inner.home,
		tempDir,
		label: inner.label,
		isLocal: true,
		fs: sandboxedFileSystem(inner.fs, () => lists().policy),
		processes: sandboxedProcesses({
			inner: inner.processes,
			cwd,
			home: inner.home,
			status,
			refusal,
			ready,
			place,
			profile: () => currentProfile(lists()),
			enterNetwork,
			launcher: currentLauncher,
			lists,
			networked,
			commandId,
			networkViolations: (since, key) =>
				runtime?.manager
					? runtime.manager.manager
							.getSandboxViolationStore()
							.getViolationsForCommand(key)
							.filter((violation) => violation.timestamp.getTime() >= since - 5)
							.map((violation) => violation.line)
					: [],
		}),
		resolvePath: (typed) => inner.resolvePath(typed),
		...(inner.glob ? { glob: filteredGlob(inner.glob.bind(inner), () => lists().policy) } : {}),
		sandbox: status,
		autoAllowBashIfSandboxed: resolved.autoAllowBashIfSandboxed,
		allowUnsandboxedCommands: resolved.allowUnsandboxedCommands,
		placeCommand: (command, placement) => place(command, placement?.unsandboxed === true),
		async sandboxCommand(file, args) {
			if (!status.active)
				throw new Error(`The OS sandbox is not active (${status.reason}), so ${file} is not started.`);
			await ready();
			const built = await currentProfile(lists());
			const starter = starterOf(built, file, args, built.sharedNetwork ? enterNetwork() : []);
			sandboxedCommandStarted();
			let released = false;
			return {
				command: starter.file,
				args: starter.args,
				env: starter.env,
				release() {
					if (released) return;
					released = true;
					sandboxedCommandEnded(built.placeholders);
				},
			};
		},
		async close() {
			if (closed) return;
			closed = true;
			// A network still starting stops at its next step and undoes what it started.
			await networkStart;
			await (await launching)?.close();
			relays?.close();
			if (runtime?.manager) await forgetWorkspace(runtime.manager, id);
			await removeFolders();
			const closable = inner as Workspace & { close?: () => Promise<void> };
			if (options.closeInner !== false && typeof closable.close === "function") await closable.close();
		},
	};
	registerSandboxedWorkspace(workspace);
	return workspace;
}

/** bubblewrap's probe failed: the reason is the probe's own, not sandbox-runtime's. */
class BubblewrapRefused extends Error {}

/** sandbox-runtime's validation errors (a malformed host pattern): the settings' fault, not the machine's. */
function isConfigurationError(error: unknown): boolean {
	const name = (error as { name?: unknown } | null)?.name;
	return name === "ZodError" || /invalid (allowedDomains|deniedDomains|entry)/i.test(errorText(error));
}
