// Builds what the end-to-end tests spawn: `node dist/main.js` of this package, which loads the built
// `dist` of every workspace package. Anything whose sources are newer than its dist is rebuilt with
// tsc first (turbo does the same for `pnpm test`; this covers a plain `npx vitest run`).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const appRoot = fileURLToPath(new URL("../..", import.meta.url));
const workspaceRoot = join(appRoot, "..", "..");
/** In dependency order. */
const PACKAGES = ["ai", "agent", "extensions", "tools", "ssh", "coding-agent", "mcp"].map((name) =>
	join(workspaceRoot, "packages", name),
);

function newestSource(folder: string): number {
	let newest = 0;
	for (const entry of readdirSync(folder, { withFileTypes: true })) {
		const path = join(folder, entry.name);
		newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
	}
	return newest;
}

function isStale(packageRoot: string, entry: string): boolean {
	const built = statSync(join(packageRoot, "dist", entry), { throwIfNoEntry: false });
	if (!built) return true;
	const sources = Math.max(newestSource(join(packageRoot, "src")), statSync(join(packageRoot, "package.json")).mtimeMs);
	return sources > built.mtimeMs;
}

export default function setup(): void {
	const tsc = createRequire(join(appRoot, "package.json")).resolve("typescript/bin/tsc");
	let rebuiltDependency = false;
	for (const packageRoot of [...PACKAGES, appRoot]) {
		const entry = packageRoot === appRoot ? "main.js" : "index.js";
		if (!rebuiltDependency && !isStale(packageRoot, entry)) continue;
		rebuiltDependency = packageRoot !== appRoot;
		try {
			execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: packageRoot, stdio: "pipe" });
			// What the build copies as is (the codemode guest prelude), as the package's build script does.
			const assets = join(packageRoot, "scripts", "copy-assets.mjs");
			if (existsSync(assets)) execFileSync(process.execPath, [assets], { stdio: "pipe" });
		} catch (error) {
			// tsc still emits JavaScript when types do not check; say so, and test what was emitted.
			const output = String((error as { stdout?: Buffer }).stdout ?? error);
			console.warn(`tsc reported errors while building ${packageRoot}:\n${output}`);
		}
	}
}
