import { homedir, tmpdir } from "node:os";
import { isAbsolute, resolve } from "node:path";

/** The home folder of this machine's user. */
export function localHome(): string {
	return homedir();
}

/** `~` and `~/…` are `home`; an absolute path is normalised; anything else is relative to `cwd`. */
export function resolveLocalPath(cwd: string, home: string, path: string): string {
	if (path === "~") return home;
	if (path.startsWith("~/")) return resolve(home, path.slice(2));
	return isAbsolute(path) ? resolve(path) : resolve(cwd, path);
}

/** This machine's folder for temporary files. */
export function localTempDir(): string {
	return tmpdir();
}
