// A Workspace whose paths are made up (`/virtual/project`, `/virtual/home`, `/virtual/tmp`) and mapped onto real temp
// folders, recording each file operation with the path asked for: anything written at a virtual path
// with this machine's `fs` instead of through the workspace lands outside the mapping and is seen.
// (The same idea as `packages/tools/test/workspace/mapped-workspace.ts`, which this package cannot import:
// its relative import of the tools' sources falls outside this package's `rootDir`.)
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { createLocalWorkspace, type Workspace, type WorkspaceFileSystem } from "@gantry/tools";

export const VIRTUAL_PROJECT = "/virtual/project";
export const VIRTUAL_TEMP = "/virtual/tmp";
/** The workspace's home (`~`), a folder apart from the project. */
export const VIRTUAL_HOME = "/virtual/home";

export interface MappedWorkspace {
	workspace: Workspace;
	/** The real folders behind `VIRTUAL_PROJECT`, `VIRTUAL_HOME` and `VIRTUAL_TEMP`. */
	project: string;
	home: string;
	temp: string;
	/** `"<operation> <virtual path>"`, in call order. */
	operations: string[];
	/** The real path behind a virtual one. */
	real(path: string): string;
	cleanup(): Promise<void>;
}

export async function createMappedWorkspace(): Promise<MappedWorkspace> {
	const root = await mkdtemp(join(tmpdir(), "gantry-mapped-"));
	const project = join(root, "project");
	const home = join(root, "home");
	const temp = join(root, "tmp");
	await Promise.all([mkdir(project), mkdir(home), mkdir(temp)]);
	const local = createLocalWorkspace(project);
	const mounts: [string, string][] = [
		[VIRTUAL_PROJECT, project],
		[VIRTUAL_HOME, home],
		[VIRTUAL_TEMP, temp],
	];
	const operations: string[] = [];
	const real = (path: string): string => {
		for (const [virtual, target] of mounts) {
			if (path === virtual) return target;
			if (path.startsWith(`${virtual}/`)) return join(target, path.slice(virtual.length + 1));
		}
		throw Object.assign(new Error(`ENOENT: no such file or directory (outside the mapped workspace): ${path}`), {
			code: "ENOENT",
		});
	};
	const virtualOf = (path: string): string => {
		for (const [virtual, target] of mounts) {
			if (path === target) return virtual;
			if (path.startsWith(`${target}/`)) return `${virtual}/${path.slice(target.length + 1)}`;
		}
		return path;
	};
	// Every operation takes the path first: record it, then run the local one on the real path.
	const fs = {} as Record<string, unknown>;
	for (const [name, operation] of Object.entries(local.fs) as [string, (...args: unknown[]) => Promise<unknown>][]) {
		fs[name] = async (path: string, ...rest: unknown[]) => {
			operations.push(`${name} ${path}`);
			let target: string;
			try {
				target = real(path);
			} catch (error) {
				if (name === "stat" || name === "lstat") return undefined;
				throw error;
			}
			const result = await operation(target, ...rest);
			return name === "realpath" ? virtualOf(result as string) : result;
		};
	}
	const workspace: Workspace = {
		cwd: VIRTUAL_PROJECT,
		home: VIRTUAL_HOME,
		tempDir: VIRTUAL_TEMP,
		label: "mapped",
		isLocal: false,
		fs: fs as unknown as WorkspaceFileSystem,
		processes: {
			spawn: (file, args, options) => local.processes.spawn(file, args, { ...options, cwd: real(options.cwd) }),
			which: (name, options) => local.processes.which(name, options),
			killAll: () => local.processes.killAll(),
		},
		resolvePath: (path) => {
			if (path === "~") return VIRTUAL_HOME;
			if (path.startsWith("~/")) return posix.join(VIRTUAL_HOME, path.slice(2));
			return posix.isAbsolute(path) ? posix.normalize(path) : posix.join(VIRTUAL_PROJECT, path);
		},
	};
	return {
		workspace,
		project,
		home,
		temp,
		operations,
		real,
		cleanup: async () => {
			await local.processes.killAll();
			await rm(root, { recursive: true, force: true });
		},
	};
}
