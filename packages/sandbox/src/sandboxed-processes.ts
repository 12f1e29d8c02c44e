import type { WorkspaceExitStatus, WorkspaceProcesses, WorkspaceSpawnOptions } from "@gantry/tools";
import { attributeToCommand } from "./command-attribution.js";
import { type CommandLauncher, NotLaunched } from "./command-launcher.js";
import { sandboxedCommandEnded, sandboxedCommandStarted } from "./placeholders.js";
import { EXEC_VARIABLE, type SandboxProfile } from "./profile.js";
import type { CommandPlacement, SandboxStatus } from "./sandboxed-workspace.js";
import { shellCommandLine, shellQuote } from "./shell-words.js";
import { filesystemNotes, networkNotes, noNetworkNote, OutputTail } from "./violation-notes.js";
import type { CurrentLists } from "./workspace-lists.js";

/** What the sandboxed processes need from their workspace. */
export interface SandboxedProcessesSetup {
	inner: WorkspaceProcesses;
	cwd: string;
	home: string;
	status: SandboxStatus;
	/**
	 * Why every command is refused now (the sandbox is not active and `failIfUnavailable` is on, or its
	 * network stopped after set-up), instead of run bare; undefined when commands may run.
	 */
	refusal(): string | undefined;
	/** Resolves once a sandboxed command can start (an allow list's network starts after set-up). */
	ready(): Promise<void>;
	/** Where a command runs (the same answer the permission policy gets). */
	place(command: string, unsandboxed: boolean): CommandPlacement;
	/** The profile for the disk as it is now (rebuilt when it changed). */
	profile(): Promise<SandboxProfile>;
	/** The command line prefix that enters the workspace's shared network (empty when it has none). */
	enterNetwork(): string[];
	/** What starts commands inside the shared network without entering it each time, once it runs. */
	launcher(): CommandLauncher | undefined;
	lists(): CurrentLists;
	/** Whether commands may reach hosts (through the proxy); else there is no network at all. */
	networked: boolean;
	/** The workspace's key for sandbox-runtime (its proxy files refusals under it unless a command has its own). */
	commandId: string;
	/** The proxy's violation lines filed under `key` since `since` (milliseconds). */
	networkViolations(since: number, key: string): string[];
}

/** The command a spawn runs, as the permission policy judges it: a shell's `-c` string, else the argv. */
export function commandTextOf(file: string, args: readonly string[]): string {
	const flag = args.at(-2);
	if (flag === "-c" || flag === "-Command") return args.at(-1) as string;
	return [file, ...args].join(" ");
}

/**
 * The process that runs `file args` in a profile: bubblewrap itself, given the seccomp filter as fd 3 when
 * `inheritFiles` (the spawning processes open `inheritedFiles` for it), or else a shell that opens the filter
 * on fd 3 first; before bubblewrap, `enter` (nsenter into the workspace's shared network) when the profile
 * needs it. The command follows bubblewrap's `--` (direct) or travels in `GANTRY_SANDBOX_EXEC`.
 */
export function starterOf(
	profile: SandboxProfile,
	file: string,
	args: readonly string[],
	enter: readonly string[] = [],
	inheritFiles = false,
): Starter {
	if (profile.sharedNetwork && enter.length === 0) throw new Error("the sandbox's shared network is not running");
	const [first, ...rest] = [
		...(profile.sharedNetwork ? enter : []),
		...(profile.direct ? [...profile.argv, file, ...args] : profile.argv),
	];
	if (first === undefined) throw new Error("The sandbox profile has an empty bubblewrap invocation");
	const env: Record<string, string> = profile.direct ? {} : { [EXEC_VARIABLE]: shellCommandLine([file, ...args]) };
	if (profile.seccompFilterPath === undefined) return { file: first, args: rest, env };
	if (inheritFiles) return { file: first, args: rest, env, inheritedFiles: [profile.seccompFilterPath] };
	return {
		file: "/bin/sh",
		args: ["-c", `exec "$0" "$@" 3<${shellQuote(profile.seccompFilterPath)}`, first, ...rest],
		env,
	};
}

/** The process a sandboxed command starts as (see `starterOf`). */
interface Starter {
	file: string;
	args: string[];
	env: Record<string, string>;
	inheritedFiles?: string[];
}

type Spawner = Pick<WorkspaceProcesses, "spawn">;

function withoutSandboxOption(options: WorkspaceSpawnOptions): WorkspaceSpawnOptions {
	const { unsandboxed: _unsandboxed, ...rest } = options;
	return rest;
}

/**
 * The workspace's processes: each spawn runs inside the sandbox's profile (bubblewrap), unless its command
 * is placed outside (excluded, or asked out and allowed). When the sandbox is not active, every spawn is
 * refused if it fails closed, and runs as it would without a sandbox otherwise. A sandboxed command that
 * fails gets a last line saying what the sandbox stopped (the path or host, and the setting that allows it).
 */
export function sandboxedProcesses(setup: SandboxedProcessesSetup): WorkspaceProcesses {
	const { inner } = setup;
	async function spawn(
		file: string,
		args: readonly string[],
		options: WorkspaceSpawnOptions,
	): Promise<WorkspaceExitStatus> {
		const refused = setup.refusal();
		if (refused !== undefined) throw new Error(refused);
		if (!setup.status.active) return inner.spawn(file, args, withoutSandboxOption(options));
		const placement = setup.place(commandTextOf(file, args), options.unsandboxed === true);
		if (!placement.sandboxed) return inner.spawn(file, args, withoutSandboxOption(options));
		await setup.ready();
		const profile = await setup.profile();
		const tail = new OutputTail();
		const tee = (consumer: WorkspaceSpawnOptions["onStdout"]) =>
			consumer === undefined
				? undefined
				: (data: Buffer) => {
						tail.push(data);
						return consumer(data);
					};
		const started = Date.now();
		sandboxedCommandStarted();
		try {
			const onStdout = tee(options.onStdout);
			const onStderr = tee(options.onStderr);
			const { inheritedFiles: _callersFiles, ...rest } = withoutSandboxOption(options);
			const start = async (spawner: Spawner, starter: Starter) => {
				// Refused connections are told to the command that made them, not to one running beside it.
				const invocation = setup.networked
					? attributeToCommand(starter.args, setup.commandId)
					: { args: starter.args, key: setup.commandId };
				const status = await spawner.spawn(starter.file, invocation.args, {
					...rest,
					...(starter.inheritedFiles ? { inheritedFiles: starter.inheritedFiles } : {}),
					env: { ...options.env, ...starter.env },
					...(onStdout ? { onStdout } : {}),
					...(onStderr ? { onStderr } : {}),
				});
				return { status, key: invocation.key };
			};
			const entering = () =>
				start(
					inner,
					starterOf(
						profile,
						file,
						args,
						profile.sharedNetwork ? setup.enterNetwork() : [],
						inner.inheritsFiles === true,
					),
				);
			// The launcher is inside the shared network already: it starts bubblewrap itself, the filter as fd 3. A
			// command it could not start (its working folder missing) is started the usual way, which says why.
			const launcher = profile.sharedNetwork ? setup.launcher() : undefined;
			const { status, key } = launcher
				? await start(launcher, starterOf({ ...profile, sharedNetwork: false }, file, args, [], true)).catch(
						(error: unknown) => {
							if (error instanceof NotLaunched) return entering();
							throw error;
						},
					)
				: await entering();
			await reportViolations(options, tail, started, status.exitCode !== 0, key);
			return status;
		} finally {
			sandboxedCommandEnded(profile.placeholders);
		}
	}

	/**
	 * Adds what the sandbox stopped: refused connections whatever the exit code (a client may print the
	 * proxy's 403 and exit 0), refused paths and unreachable hosts read from the output of a failure.
	 */
	async function reportViolations(
		options: WorkspaceSpawnOptions,
		tail: OutputTail,
		started: number,
		failed: boolean,
		key: string,
	): Promise<void> {
		const output = failed ? tail.text() : "";
		const notes = [
			...(failed ? filesystemNotes(output, setup.lists().policy, setup.cwd, setup.home) : []),
			...(setup.networked
				? networkNotes(setup.networkViolations(started, key))
				: failed
					? [noNetworkNote(output)]
					: []),
		].filter((note): note is string => note !== undefined);
		const report = options.onStderr ?? options.onStdout;
		if (notes.length === 0 || report === undefined) return;
		await report(Buffer.from(`\n${notes.map((note) => `[sandbox] ${note}`).join("\n")}\n`));
	}

	return {
		spawn,
		which: (name, lookup) => inner.which(name, lookup),
		...(inner.killAll ? { killAll: () => (inner.killAll as () => Promise<void>)() } : {}),
	};
}
