// A Workspace for tests: it shows the tools a made-up tree (`/virtual/...`) and maps every path onto real
// temp folders, recording each operation with the path the tool asked for. Anything outside the mapped
// folders does not exist for it, so a tool that reached past the workspace would fail or be seen.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import type { Workspace, WorkspaceFileSystem, WorkspaceProcesses } from "../../src/index.js";
import { createLocalWorkspace } from "../../src/index.js";

export const VIRTUAL_PROJECT = "/virtual/project";
export const VIRTUAL_HOME = "/virtual/home";
export const VIRTUAL_TEMP = "/virtual/tmp";

export interface MappedWorkspace {
	workspace: Workspace;
	/** Real folders behind `/virtual/project`, `/virtual/home` and `/virtual/tmp`. */
	project: string;
	home: string;
	temp: string;
	/** `"<operation> <virtual path>"`, in call order. */
	operations: string[];
	cleanup(): Promise<void>;
}

function missing(path: string): Error {
	return Object.assign(new Error(`ENOENT: no such file or directory (outside the mapped workspace): ${path}`), {
		code: "ENOENT",
	});
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
		cleanup: async () => {
			await local.processes.killAll();
			await rm(root, { recursive: true, force: true });
		},
	};
}
