import type { WorkspaceProcesses } from "@gantry/tools";
import picomatch from "picomatch";

/**
 * rg's walk with the local find's rules: hidden files listed, .gitignore files honoured inside and
 * outside a repository, `.git` and `node_modules` never entered. The pattern is applied here, not by
 * `--glob`, because an rg include glob would bring back files .gitignore leaves out.
 */
const WALK_FLAGS = [
	"--files",
	"--null",
	"--no-config",
	"--no-messages",
	"--hidden",
	"--no-require-git",
	"--no-ignore-dot",
	"--no-ignore-exclude",
	"--no-ignore-global",
	"--glob",
	"!.git",
	"--glob",
	"!node_modules",
];

/**
 * `Workspace.glob` over the host's rg: lists the files under `cwd` remotely and keeps those whose
 * relative path matches `pattern` (a pattern without `/` matches names at any depth).
 */
export function createRemoteGlob(processes: WorkspaceProcesses, rg: string) {
	return async (pattern: string, cwd: string, signal: AbortSignal | undefined): Promise<string[]> => {
		const chunks: Buffer[] = [];
		const exit = await processes.spawn(rg, WALK_FLAGS, {
			cwd,
			signal,
			onStdout: (chunk) => {
				chunks.push(chunk);
				return undefined;
			},
		});
		// 1 is "no files"; 2 is "some folder could not be read", and the rest is still listed.
		if (exit.exitCode !== 0 && exit.exitCode !== 1 && exit.exitCode !== 2) {
			throw new Error(`rg --files failed on the host (${exit.signal ?? `exit code ${exit.exitCode}`}).`);
		}
		const matches = picomatch(pattern.includes("/") ? pattern : `**/${pattern}`, { dot: true });
		const files = Buffer.concat(chunks).toString("utf8").split("\0");
		return files.filter((file) => file !== "" && matches(file));
	};
}
