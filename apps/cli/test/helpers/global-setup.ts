// Builds what the end-to-end tests spawn: `node dist/main.js`, the bundle this package publishes (the CLI
// and the @gantry libraries, from their sources), and the built @gantry/coding-agent that
// built-codemode.test.ts loads. turbo builds both before `pnpm test` runs this package, so there this is a
// cache hit; it covers a plain `npx vitest run`, rebuilding only what changed.
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const workspaceRoot = fileURLToPath(new URL("../../../..", import.meta.url));

export default function setup(): void {
	const turbo = createRequire(join(workspaceRoot, "package.json")).resolve("turbo/bin/turbo");
	const args = ["run", "build", "--filter=@gantry/cli", "--filter=@gantry/coding-agent", "--output-logs=errors-only"];
	try {
		execFileSync(process.execPath, [turbo, ...args], {
			cwd: workspaceRoot,
			stdio: "pipe",
			env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
		});
	} catch (error) {
		const failed = error as { stdout?: Buffer; stderr?: Buffer };
		throw new Error(`the build the CLI tests need failed:\n${failed.stdout ?? ""}${failed.stderr ?? ""}`);
	}
}
