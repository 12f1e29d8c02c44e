import type { SandboxRuntimeConfig } from "@anthropic-ai/sandbox-runtime";

/**
 * sandbox-runtime's `SandboxManager` is one object per process: one configuration, one proxy, one store of
 * violations. Every sandboxed workspace that allows a host shares it through this module (one that allows
 * none builds its profile with the Linux modules alone: see `linux-runtime.ts`), which loads the library
 * once (only when such a sandbox starts, so importing `@gantry/sandbox` costs nothing), keeps the union
 * of the workspaces' `allowedDomains` and `deniedDomains` in its configuration (sandbox-runtime exempts an
 * allowed IP literal such as `127.0.0.1:8080` from its refusal of this machine's own addresses only when the
 * configuration lists it), and runs one profile build at a time (a build may swap the configuration for a
 * moment; see `buildWithConfig`). Workspaces of one process that allow hosts therefore share their lists.
 *
 * The proxy and its host-side bridges are started only for a workspace that allows a host (`startNetwork`),
 * and stopped again when the last such workspace closed: a workspace with no network needs none of them,
 * and starting them (two listeners, a socat bridge and sandbox-runtime's wait for its socket) was most of
 * the set-up after the library's own load.
 */

type Manager = typeof import("@anthropic-ai/sandbox-runtime")["SandboxManager"];

/** The configuration every build starts from: the allowed and denied hosts of every live workspace. */
function baseConfig(
	allowedDomains: string[],
	deniedDomains: string[],
	bwrapPath: string,
	socatPath: string,
): SandboxRuntimeConfig {
	return {
		network: { allowedDomains, deniedDomains },
		filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
		bwrapPath,
		socatPath,
	};
}

export interface Started {
	manager: Manager;
	bwrapPath: string;
	socatPath: string;
}

let started: Promise<Started> | undefined;
let loading: Promise<typeof import("@anthropic-ai/sandbox-runtime")> | undefined;

/**
 * Starts loading sandbox-runtime's manager (a few hundred milliseconds of module loading, node-forge most of
 * it), so that it overlaps the availability check; `startRuntime` waits for the same load.
 */
export function preloadRuntime(): Promise<unknown> {
	loading ??= import("@anthropic-ai/sandbox-runtime");
	const attempt = loading;
	attempt.catch(() => {
		if (loading === attempt) loading = undefined;
	});
	return attempt;
}
/** Allowed and denied hosts by workspace id. */
const hostsByWorkspace = new Map<string, { allowed: string[]; denied: string[] }>();
/** Builds wait for each other: one configuration at a time. */
let queue: Promise<unknown> = Promise.resolve();

function currentBase(state: Started): SandboxRuntimeConfig {
	const lists = [...hostsByWorkspace.values()];
	const allowed = [...new Set(lists.flatMap((hosts) => hosts.allowed))];
	const denied = [...new Set(lists.flatMap((hosts) => hosts.denied))];
	return baseConfig(allowed, denied, state.bwrapPath, state.socatPath);
}

/**
 * Loads sandbox-runtime's manager and gives it the shared configuration, without its proxy (see
 * `startNetwork`). Only a workspace that allows a host needs it; what the library needs on this machine is
 * checked before (`checkAvailability`, `linuxDependencyError`). Rejects when it cannot be loaded.
 */
export function startRuntime(bwrapPath: string, socatPath: string): Promise<Started> {
	started ??= (async () => {
		preloadRuntime();
		const { SandboxManager } = await (loading as Promise<typeof import("@anthropic-ai/sandbox-runtime")>);
		const state = { manager: SandboxManager, bwrapPath, socatPath };
		SandboxManager.updateConfig(currentBase(state));
		return state;
	})();
	const attempt = started;
	attempt.catch(() => {
		if (started === attempt) started = undefined;
	});
	return attempt;
}

/** Workspaces that allow hosts, by id: the proxy runs while there is one. */
const networkUsers = new Set<string>();
let network: Promise<void> | undefined;

/**
 * Starts sandbox-runtime's proxy and the host side of its network bridges for workspace `id` (once for all
 * of them). Rejects with the library's reason when they cannot start.
 *
 * Only the call of `initialize` holds the queue, not the wait for it: a build queued behind it walks the
 * disk while the bridges start (the library's wrap waits for its network itself, after its walk, and
 * `initialize` has installed its configuration by the time it returns its promise). The workspace counts as
 * a user from the start, so that another one closing meanwhile does not stop the network under it.
 */
export function startNetwork(state: Started, id: string): Promise<void> {
	const begun = serialized(async () => {
		network ??= state.manager.initialize(currentBase(state));
		networkUsers.add(id);
		// In an object: an async function would wait for a promise it returned.
		return { attempt: network };
	});
	return begun.then(async ({ attempt }) => {
		try {
			await attempt;
		} catch (error) {
			networkUsers.delete(id);
			if (network === attempt) network = undefined;
			throw error;
		}
	});
}

/** Stops the proxy and its bridges once the last workspace that allows hosts has closed. */
function stopNetworkUnused(state: Started): Promise<void> | undefined {
	if (networkUsers.size > 0 || network === undefined) return undefined;
	network = undefined;
	return state.manager.reset().then(() => state.manager.updateConfig(currentBase(state)));
}

/** Runs `work` after every build queued before it (one configuration at a time). */
function serialized<T>(work: () => Promise<T>): Promise<T> {
	const result = queue.then(work, work);
	queue = result.catch(() => undefined);
	return result;
}

/** Adds (or replaces) a workspace's allowed and denied hosts in the shared configuration. */
export function setWorkspaceHosts(state: Started, id: string, allowed: string[], denied: string[]): Promise<void> {
	return serialized(async () => {
		if (allowed.length === 0 && denied.length === 0 && !hostsByWorkspace.has(id)) return;
		hostsByWorkspace.set(id, { allowed, denied });
		state.manager.updateConfig(currentBase(state));
	});
}

/** Forgets a closed workspace's hosts. */
export function forgetWorkspace(state: Started, id: string): Promise<void> {
	return serialized(async () => {
		if (hostsByWorkspace.delete(id)) state.manager.updateConfig(currentBase(state));
		networkUsers.delete(id);
		await stopNetworkUnused(state);
	});
}

/**
 * Runs `build` with the shared configuration changed by `change` for its duration, then puts it back (a
 * workspace whose relays are shared builds with Unix sockets left to bubblewrap's filter).
 */
export function buildWithConfig<T>(
	state: Started,
	change: (base: SandboxRuntimeConfig) => SandboxRuntimeConfig,
	build: (manager: Manager) => Promise<T>,
): Promise<T> {
	return serialized(async () => {
		const base = currentBase(state);
		const changed = change(base);
		if (changed !== base) state.manager.updateConfig(changed);
		try {
			return await build(state.manager);
		} finally {
			if (changed !== base) state.manager.updateConfig(base);
		}
	});
}
