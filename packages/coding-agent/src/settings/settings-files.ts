import { readFile, realpath } from "node:fs/promises";
import { homedir } from "node:os";
import path from "node:path";
import type { Workspace } from "@gantry/tools";
import { CodingAgentError } from "../errors.js";
import type { SettingsScope } from "./types.js";

/** One settings file of a run: where it is, how it is named in messages, and how its text is read. */
export interface SettingsFile {
	path: string;
	scope: SettingsScope;
	/** The name errors and notes give: the path, `user@host:port:/path` for a file on a remote host. */
	where: string;
	/**
	 * The file's text; `{ missing: true }` when there is none; `{ refused }` when it is not read because it
	 * leads out of the project (a link, or a `.gantry` that is a link). Rejects with a `CodingAgentError`
	 * naming the file when it exists and cannot be read.
	 */
	read(): Promise<{ text: string } | { missing: true } | { refused: string }>;
}

function isMissing(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === "ENOENT" || code === "ENOTDIR";
}

function unreadable(where: string, error: unknown): CodingAgentError {
	return new CodingAgentError("invalid_option", `${where}: cannot be read (${(error as Error).message})`, {
		cause: error,
	});
}

/** The file system a project's files are read on: this machine, or a remote workspace's host. */
interface FileHost {
	realpath(file: string): Promise<string>;
	readText(file: string): Promise<string>;
	syntax: path.PlatformPath;
	label?: string;
}

const localHost: FileHost = {
	realpath: (file) => realpath(file),
	readText: (file) => readFile(file, "utf8"),
	syntax: path,
};

function workspaceHost(workspace: Workspace): FileHost {
	return {
		realpath: (file) => workspace.fs.realpath(file),
		readText: async (file) => Buffer.from(await workspace.fs.readFile(file)).toString("utf8"),
		syntax: path.posix,
		label: workspace.label,
	};
}

/** Whether `inner` is `outer` or inside it. */
function isWithin(syntax: path.PlatformPath, outer: string, inner: string): boolean {
	const relative = syntax.relative(outer, inner);
	return relative === "" || (!relative.startsWith("..") && !syntax.isAbsolute(relative));
}

function fileOn(host: FileHost, file: string, scope: SettingsScope, project: string | undefined): SettingsFile {
	const where = host.label === undefined ? file : `${host.label}:${file}`;
	return {
		path: file,
		scope,
		where,
		async read() {
			let real: string;
			try {
				real = await host.realpath(file);
			} catch (error) {
				if (isMissing(error)) return { missing: true };
				throw unreadable(where, error);
			}
			if (project !== undefined) {
				let realProject: string;
				try {
					realProject = await host.realpath(project);
				} catch (error) {
					throw unreadable(where, error);
				}
				if (!isWithin(host.syntax, realProject, real)) {
					return { refused: `it leads out of the project folder, to ${real}, so it was not read` };
				}
			}
			try {
				return { text: await host.readText(real) };
			} catch (error) {
				if (isMissing(error)) return { missing: true };
				throw unreadable(where, error);
			}
		},
	};
}

/**
 * The settings files of a folder, in merge order: `~/.gantry/settings.json` (always this machine's), then
 * the project's `.gantry/settings.json` and `.gantry/settings.local.json` in `cwd` — read on the host of a
 * remote `workspace`, so a local file at the remote path is never read. A project file is only read when
 * its real location is inside the project's real folder: a link (or a `.gantry` link) leading elsewhere
 * is refused, so a cloned repository cannot pass another file off as its settings.
 */
export function settingsFilesOf(cwd: string, home: string = homedir(), workspace?: Workspace): SettingsFile[] {
	const remote = workspace !== undefined && !workspace.isLocal ? workspaceHost(workspace) : undefined;
	const host = remote ?? localHost;
	const project = (name: string) => host.syntax.join(cwd, ".gantry", name);
	return [
		fileOn(localHost, path.join(home, ".gantry", "settings.json"), "user", undefined),
		fileOn(host, project("settings.json"), "project", cwd),
		fileOn(host, project("settings.local.json"), "local", cwd),
	];
}

/** The real location of a local file, or undefined when it is missing or unreadable (to spot one file read twice). */
export async function realLocation(file: string): Promise<string | undefined> {
	return realpath(file).catch(() => undefined);
}
