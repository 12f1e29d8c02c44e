import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { createLocalWorkspace } from "../workspace/local/local-workspace.js";
import type { Workspace, WorkspaceFileSystem, WorkspaceProcesses } from "../workspace/types.js";

/** The working folder the mapped workspace shows. */
export const VIRTUAL_PROJECT = "/virtual/project";
/** Its home (`~`), a folder apart from the project. */
export const VIRTUAL_HOME = "/virtual/home";
/** Its temp folder. */
export const VIRTUAL_TEMP = "/virtual/tmp";

/** What `createMappedWorkspace` gives a test. */
export interface MappedWorkspace {
	workspace: Workspace;
	/** The real folders behind `VIRTUAL_PROJECT`, `VIRTUAL_HOME` and `VIRTUAL_TEMP`. */
	project: string;
	home: string;
	temp: string;
	/** `"<operation> <virtual path>"`, in call order. */
	operations: string[];
	/** The real path behind a virtual one; throws an ENOENT error outside the mapped folders. */
	real(path: string): string;
	/** Kills what the workspace started and removes the real folders. */
	cleanup(): Promise<void>;
}

function missing(path: string): Error {
	return Object.assign(new Error(`ENOENT: no such file or directory (outside the mapped workspace): ${path}`), {
		code: "ENOENT",
	});
}

/**
 * A Workspace for tests that is not this machine as far as the tools can tell: it shows a made-up tree
 * (`/virtual/project`, `/virtual/home`, `/virtual/tmp`, POSIX paths, `isLocal: false`) and maps every
 * path onto real temp folders, recording each operation with the path asked for. Anything outside the
 * mapped folders does not exist for it, so code that reaches past the workspace (this machine's `fs`
 * at a virtual path, say) fails or leaves a trace where a test can see it. Processes run on this
 * machine, in the mapped working folder.
 *
 * @example
 * const mapped = await createMappedWorkspace();
 * const read = createReadToolDefinition(mapped.workspace);
 * // … run it, then: expect(mapped.operations).toContain("open /virtual/project/notes.txt");
 * await mapped.cleanup();
 */
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

	/** The real path behind a virtual one, or undefined outside the mounts. */
	const real = (path: string): string | undefined => {
		for (const [virtual, target] of mounts) {
			if (path === virtual) return target;
			if (path.startsWith(`${virtual}/`)) return join(target, path.slice(virtual.length + 1));
		}
		return undefined;
	};
	const virtualOf = (path: string): string => {
		for (const [virtual, target] of mounts) {
			if (path === target) return virtual;
			if (path.startsWith(`${target}/`)) return `${virtual}/${path.slice(target.length + 1)}`;
		}
		return path;
	};
	const record = (operation: string, path: string) => operations.push(`${operation} ${path}`);
	const mapped = (operation: string, path: string): string => {
		record(operation, path);
		const target = real(path);
		if (target === undefined) throw missing(path);
		return target;
	};
	const lookup = async <T>(operation: string, path: string, run: (target: string) => Promise<T | undefined>) => {
		record(operation, path);
		const target = real(path);
		return target === undefined ? undefined : run(target);
	};

	const fs: WorkspaceFileSystem = {
		stat: (path) => lookup("stat", path, (target) => local.fs.stat(target)),
		lstat: (path) => lookup("lstat", path, (target) => local.fs.lstat(target)),
		readlink: async (path) => local.fs.readlink(mapped("readlink", path)),
		readdir: async (path) => local.fs.readdir(mapped("readdir", path)),
		open: async (path) => local.fs.open(mapped("open", path)),
		readFile: async (path) => local.fs.readFile(mapped("readFile", path)),
		writeFileAtomic: async (path, data) => local.fs.writeFileAtomic(mapped("writeFileAtomic", path), data),
		mkdir: async (path) => local.fs.mkdir(mapped("mkdir", path)),
		access: async (path, mode) => local.fs.access(mapped(`access(${mode})`, path), mode),
		realpath: async (path) => virtualOf(await local.fs.realpath(mapped("realpath", path))),
		unlink: async (path) => local.fs.unlink(mapped("unlink", path)),
		remove: async (path) => local.fs.remove(mapped("remove", path)),
		createWriteStream: async (path) => local.fs.createWriteStream(mapped("createWriteStream", path)),
	};
	const processes: WorkspaceProcesses = {
		spawn: async (file, args, options) =>
			local.processes.spawn(file, args, { ...options, cwd: mapped(`spawn ${posix.basename(file)} in`, options.cwd) }),
		which: async (name, options) => {
			record("which", name);
			return local.processes.which(name, options);
		},
		killAll: () => local.processes.killAll(),
	};
	const workspace: Workspace = {
		cwd: VIRTUAL_PROJECT,
		home: VIRTUAL_HOME,
		tempDir: VIRTUAL_TEMP,
		label: "mapped",
		isLocal: false,
		fs,
		processes,
		resolvePath(path) {
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
		real: (path) => {
			const target = real(path);
			if (target === undefined) throw missing(path);
			return target;
		},
		cleanup: async () => {
			await local.processes.killAll();
			await rm(root, { recursive: true, force: true });
		},
	};
}
