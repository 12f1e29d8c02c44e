import { randomBytes } from "node:crypto";
import { mkdir, readFile, realpath, rename, rm, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Workspace } from "@gantry/tools";
import { CodingAgentError } from "../errors.js";

/** Where a project is: a folder on this machine, or on the host of a remote workspace. */
export interface ProjectPlace {
	cwd: string;
	/** A remote workspace the folder is on; default this machine. */
	workspace?: Workspace | undefined;
}

/** The trust file's shape: `{ "folders": { "<real path>": { "trustedAt": "<ISO time>" } } }`. */
interface TrustFile {
	folders: Record<string, { trustedAt: string }>;
}

/** `~/.gantry/trust.json` under `home`. */
export function trustFilePath(home: string = homedir()): string {
	return join(home, ".gantry", "trust.json");
}

function isMissing(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * The key a folder's trust is kept under: its real path (links followed, so a link to a trusted folder is
 * that folder and a folder behind a trusted name is not), prefixed by the host for a remote workspace.
 * Undefined when the folder does not exist.
 */
export async function trustKeyOf(place: ProjectPlace): Promise<string | undefined> {
	const { workspace } = place;
	try {
		if (workspace !== undefined && !workspace.isLocal)
			return `${workspace.label}:${await workspace.fs.realpath(place.cwd)}`;
		return await realpath(place.cwd);
	} catch (error) {
		if (isMissing(error)) return undefined;
		throw new CodingAgentError(
			"invalid_option",
			`Cannot tell where ${place.cwd} is (${(error as Error).message}), so its trust cannot be checked.`,
			{ cause: error },
		);
	}
}

async function readTrustFile(path: string): Promise<TrustFile> {
	let text: string;
	try {
		text = await readFile(path, "utf8");
	} catch (error) {
		if (isMissing(error)) return { folders: {} };
		throw new CodingAgentError("invalid_option", `${path} cannot be read (${(error as Error).message}).`, {
			cause: error,
		});
	}
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch (error) {
		throw new CodingAgentError(
			"invalid_option",
			`${path} is not valid JSON (${(error as Error).message}). Fix it, or remove it and trust your folders again.`,
			{ cause: error },
		);
	}
	const folders = (parsed as { folders?: unknown } | null)?.folders;
	if (typeof folders !== "object" || folders === null || Array.isArray(folders)) {
		throw new CodingAgentError(
			"invalid_option",
			`${path} must hold { "folders": { "<folder>": { "trustedAt": "…" } } }. Fix it, or remove it and trust your folders again.`,
		);
	}
	return { folders: folders as TrustFile["folders"] };
}

/** Whether the folder behind `key` is in the trust file. */
export async function isTrustedKey(key: string, home?: string): Promise<boolean> {
	const { folders } = await readTrustFile(trustFilePath(home));
	return Object.hasOwn(folders, key);
}

/** Adds `key` to the trust file: a new file beside it renamed over it, readable by the user only. */
export async function trustKey(key: string, home?: string): Promise<void> {
	const path = trustFilePath(home);
	const file = await readTrustFile(path);
	if (Object.hasOwn(file.folders, key)) return;
	file.folders[key] = { trustedAt: new Date().toISOString() };
	const folder = join(path, "..");
	const temp = join(folder, `.trust.json.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
	try {
		await mkdir(folder, { recursive: true, mode: 0o700 });
		await writeFile(temp, `${JSON.stringify(file, null, "\t")}\n`, { mode: 0o600, flag: "wx" });
		await rename(temp, path);
	} catch (error) {
		await rm(temp, { force: true });
		throw new CodingAgentError("invalid_option", `${path} could not be written (${(error as Error).message}).`, {
			cause: error,
		});
	}
}

/**
 * Whether the folder `cwd` is trusted (`~/.gantry/trust.json` under `home`, default the user's): its real
 * path, links followed, is listed there. A missing folder is not trusted. Throws `invalid_option` for a
 * trust file that cannot be read.
 */
export async function isProjectTrusted(cwd: string, home?: string): Promise<boolean> {
	const key = await trustKeyOf({ cwd });
	return key !== undefined && (await isTrustedKey(key, home));
}

/** Trusts a folder on this machine or, with `workspace`, on a remote host (kept as `user@host:port:/real/path`). */
export async function trustProjectOn(place: ProjectPlace, home?: string): Promise<void> {
	const key = await trustKeyOf(place);
	if (key === undefined)
		throw new CodingAgentError("invalid_option", `Cannot trust ${place.cwd}: there is no such folder.`);
	await trustKey(key, home);
}

/**
 * Trusts the folder `cwd`: from now on its `.gantry/settings*.json` allow and ask rules, hooks, env,
 * sandbox loosening and default mode, and its `.mcp.json` servers, take effect. Kept under its real path.
 * Throws `invalid_option` for a missing folder or a trust file that cannot be read or written.
 */
export async function trustProject(cwd: string, home?: string): Promise<void> {
	await trustProjectOn({ cwd }, home);
}
