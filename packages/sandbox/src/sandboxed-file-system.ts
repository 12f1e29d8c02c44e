import path from "node:path";
import type { Workspace, WorkspaceFileSystem } from "@gantry/tools";
import { type PathPolicy, type PathRefusal, refusalMessage } from "./path-policy.js";

/**
 * The code of a file operation the sandbox refused. Not a POSIX code on purpose: the file tools keep the
 * message (which path, why, and the setting that would allow it) instead of a generic "permission denied".
 */
export const SANDBOX_REFUSED = "ESANDBOX";

const MAX_LINK_HOPS = 40;

function isMissing(error: unknown): boolean {
	const code = (error as { code?: unknown } | null)?.code;
	return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Where `absolute` really is: links followed in the part that exists, the rest appended (a file a write
 * creates), a dangling link followed to where it points (writing through it creates its target).
 */
async function realLocation(fs: WorkspaceFileSystem, absolute: string): Promise<string> {
	const missing: string[] = [];
	let current = absolute;
	for (let hops = 0; ; ) {
		try {
			return path.join(await fs.realpath(current), ...missing.reverse());
		} catch (error) {
			const parent = path.dirname(current);
			if (parent === current || !isMissing(error)) return path.join(current, ...missing.reverse());
			const target = await fs.readlink(current).catch(() => undefined);
			if (target !== undefined && ++hops <= MAX_LINK_HOPS) {
				current = path.resolve(parent, target);
				continue;
			}
			missing.push(path.basename(current));
			current = parent;
		}
	}
}

function refused(action: "read" | "write", refusal: PathRefusal): Error {
	return Object.assign(new Error(refusalMessage(action, refusal)), { code: SANDBOX_REFUSED });
}

/**
 * `inner` held to the sandbox's lists: reading a file or listing a folder `denyRead` hides is refused, and
 * so is every change outside the writable folders or to a protected path, judged on the path as given and
 * where its links lead. Looking at a path (`stat`, `realpath`, …) is not refused: commands can see the
 * names too. A refusal rejects with code `ESANDBOX` and says which path, why, and what would allow it.
 */
export function sandboxedFileSystem(inner: WorkspaceFileSystem, policyNow: () => PathPolicy): WorkspaceFileSystem {
	const check = async (action: "read" | "write", target: string) => {
		const policy = policyNow();
		const judge = (candidate: string) =>
			action === "write" ? policy.refuseWrite(candidate) : policy.refuseRead(candidate);
		const written = judge(path.resolve(target));
		if (written) throw refused(action, written);
		const real = await realLocation(inner, path.resolve(target));
		const atReal = judge(real);
		if (atReal) throw refused(action, atReal);
	};
	return {
		stat: (target) => inner.stat(target),
		lstat: (target) => inner.lstat(target),
		readlink: (target) => inner.readlink(target),
		realpath: (target) => inner.realpath(target),
		async readdir(target) {
			await check("read", target);
			return inner.readdir(target);
		},
		async open(target) {
			await check("read", target);
			return inner.open(target);
		},
		async readFile(target) {
			await check("read", target);
			return inner.readFile(target);
		},
		async access(target, mode) {
			await check(mode === "write" ? "write" : "read", target);
			return inner.access(target, mode);
		},
		async writeFileAtomic(target, data) {
			await check("write", target);
			return inner.writeFileAtomic(target, data);
		},
		async mkdir(target) {
			// A folder that exists already is left as it is: nothing is written, wherever it is.
			if ((await inner.stat(target).catch(() => undefined))?.kind === "directory") return;
			await check("write", target);
			return inner.mkdir(target);
		},
		async unlink(target) {
			await check("write", target);
			return inner.unlink(target);
		},
		async remove(target) {
			await check("write", target);
			return inner.remove(target);
		},
		async createWriteStream(target) {
			await check("write", target);
			return inner.createWriteStream(target);
		},
	};
}

/** `find`'s fast path without the files `denyRead` hides. */
export function filteredGlob(
	glob: NonNullable<Workspace["glob"]>,
	policyNow: () => PathPolicy,
): NonNullable<Workspace["glob"]> {
	return async (pattern, cwd, signal) => {
		const found = await glob(pattern, cwd, signal);
		const policy = policyNow();
		return found.filter((relative) => policy.refuseRead(path.join(cwd, relative)) === undefined);
	};
}
