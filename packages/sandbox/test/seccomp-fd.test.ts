import type { WorkspaceProcesses, WorkspaceSpawnOptions } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import { createSandboxedWorkspace } from "../src/index.js";
import { bash, localWorkspace, placePerTest } from "./helpers.js";

/** The local processes, with each spawn's program and inherited files written down (the spawn itself is real). */
function recorded(processes: WorkspaceProcesses, inheritsFiles: boolean) {
	const spawned: { file: string; inheritedFiles: readonly string[] | undefined }[] = [];
	const wrapped: WorkspaceProcesses = {
		...processes,
		inheritsFiles,
		spawn(file: string, args: readonly string[], options: WorkspaceSpawnOptions) {
			spawned.push({ file, inheritedFiles: options.inheritedFiles });
			return processes.spawn(file, args, options);
		},
	};
	return { wrapped, spawned };
}

describe("the seccomp filter of a workspace with no host allowed", () => {
	const here = placePerTest();
	const { workspaces } = here;

	for (const inheritsFiles of [true, false]) {
		it(`reaches bubblewrap ${inheritsFiles ? "as a file the local processes open (no shell in front)" : "through a shell where the processes cannot open files for it"}, and refuses Unix sockets`, async () => {
			const local = localWorkspace(here.place);
			const { wrapped, spawned } = recorded(local.processes, inheritsFiles);
			const workspace = await createSandboxedWorkspace({ ...local, processes: wrapped }, { enabled: true });
			workspaces.push(workspace);
			expect(workspace.sandbox.active).toBe(true);
			spawned.length = 0;
			const socket = await bash(workspace, "python3 -c 'import socket; socket.socket(socket.AF_UNIX)' 2>&1 | tail -1");
			expect(socket.text).toMatch(/Permission|not permitted/i);
			const bwrapPath = await local.processes.which("bwrap");
			const [started] = spawned;
			if (inheritsFiles) {
				expect(started?.file).toBe(bwrapPath);
				expect(started?.inheritedFiles).toEqual([expect.stringMatching(/sockets\.bpf$/)]);
			} else {
				expect(started?.file).toBe("/bin/sh");
				expect(started?.inheritedFiles).toBeUndefined();
			}
		});
	}
});
