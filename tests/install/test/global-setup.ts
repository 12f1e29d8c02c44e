// Packs every publishable package once for all the install tests, with the command users run
// (`pnpm pack:all`, scripts/pack-all.mjs), into a temporary folder the tests receive as `packs`.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";

const run = promisify(execFile);
const ROOT = new URL("../../../", import.meta.url).pathname;

/** One tarball made by `pnpm pack:all --json`. */
export interface PackedPackage {
	name: string;
	version: string;
	file: string;
}

declare module "vitest" {
	export interface ProvidedContext {
		packs: PackedPackage[];
	}
}

let folder = "";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	folder = await mkdtemp(join(tmpdir(), "gantry-packs-"));
	const { stdout } = await run(process.execPath, [join(ROOT, "scripts", "pack-all.mjs"), "--out", folder, "--json"], {
		cwd: ROOT,
		maxBuffer: 16 * 1024 * 1024,
	});
	project.provide("packs", JSON.parse(stdout) as PackedPackage[]);
	return async () => {
		await rm(folder, { recursive: true, force: true });
	};
}
