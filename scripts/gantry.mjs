#!/usr/bin/env node
// `pnpm gantry …` from the repository: builds the CLI (apps/cli/dist, bundled from the sources of the CLI
// and the packages it uses) when a source changed, then runs it.
// pnpm finds this through the `gantry` bin of the root's `@gantry/scripts` link (not a package.json
// script), so pnpm prints no script banner and no `ELIFECYCLE` line when gantry exits non-zero.
// The build is quiet: when turbo has to build (not a cache hit), one "building…" line on stderr; turbo's
// own output only when the build fails. stdout belongs to gantry alone, so `pnpm gantry -p … > notes.md`
// and `pnpm gantry tools --json | jq` get the program's output and nothing else.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const entry = fileURLToPath(new URL("../apps/cli/dist/main.js", import.meta.url));
const NOTE = "gantry: building the CLI from the workspace sources… (a few seconds)";
/** turbo's line for a task it runs rather than replays from its cache. */
const CACHE_MISS = /cache (miss, executing|bypass, force executing)/;

/**
 * Runs turbo's build of the CLI; calls `onBuilding` once if turbo builds rather than replays its cache.
 * Resolves to turbo's exit code and its collected output.
 */
function build(onBuilding) {
	const turbo = createRequire(`${root}package.json`).resolve("turbo/bin/turbo");
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [turbo, "run", "build", "--filter=@gantry/cli", "--log-prefix=none"], {
			cwd: root,
			stdio: ["ignore", "pipe", "pipe"],
			env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", FORCE_COLOR: "0" },
		});
		const output = [];
		let building = false;
		let recent = "";
		const collect = (chunk) => {
			output.push(chunk);
			if (building) return;
			// The end of the previous chunk too, in case turbo's line was split between two.
			recent = recent.slice(-100) + chunk.toString("utf8");
			if (CACHE_MISS.test(recent)) {
				building = true;
				onBuilding();
			}
		};
		child.stdout.on("data", collect);
		child.stderr.on("data", collect);
		child.on("error", (error) => resolve({ code: 1, output: `${error.message}\n` }));
		child.on("close", (code) => resolve({ code: code ?? 1, output: Buffer.concat(output).toString("utf8") }));
	});
}

const live = process.stderr.isTTY === true;
let noted = false;
const built = await build(() => {
	noted = true;
	process.stderr.write(live ? NOTE : `${NOTE}\n`);
});
// On a terminal the note is erased once the build is done; in a log it stays as one line.
if (noted && live) process.stderr.write("\r\x1b[2K");
if (built.code !== 0) {
	process.stderr.write(built.output);
	process.stderr.write(`gantry: the build failed (turbo exited with code ${built.code}); see the output above\n`);
	process.exit(1);
}

const child = spawn(process.execPath, [entry, ...process.argv.slice(2)], { stdio: "inherit" });
// Ctrl-C reaches gantry directly (same process group), so the launcher ignores it and waits for the exit
// code; a SIGTERM or SIGHUP sent to the launcher alone is passed on.
process.on("SIGINT", () => {});
for (const signal of ["SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
	process.stderr.write(`gantry: could not start ${entry}: ${error.message}\n`);
	process.exit(1);
});
child.on("close", (code, signal) => {
	process.exit(code ?? (signal === "SIGINT" ? 130 : 1));
});
