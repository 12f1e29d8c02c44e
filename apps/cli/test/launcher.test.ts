import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url));

/** `pnpm gantry …` from the repository root, as the README has people run it. */
function pnpmGantry(args: string[], env: Record<string, string> = {}) {
	const run = spawnSync("pnpm", ["gantry", ...args], {
		cwd: repositoryRoot,
		encoding: "utf8",
		env: { ...process.env, FORCE_COLOR: "0", NO_COLOR: "1", ...env },
		timeout: 180_000,
	});
	return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("pnpm gantry", () => {
	it("keeps stdout for the program: the build's output stays off it", () => {
		// TURBO_FORCE makes turbo build instead of replaying its cache, as after a change to a source.
		const version = pnpmGantry(["--version"], { TURBO_FORCE: "true" });
		expect(version.code).toBe(0);
		expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
		// One "building…" note on stderr, none of turbo's banner or task lines.
		expect(version.stderr).toMatch(/^gantry: building/);
		expect(version.stderr.trim().split("\n")).toHaveLength(1);
		expect(`${version.stdout}${version.stderr}`).not.toMatch(/turbo|Tasks:|Packages in scope/);

		// Nothing changed since: turbo replays its cache, and there is no note to show.
		const again = pnpmGantry(["--version"]);
		expect(again.code).toBe(0);
		expect(again.stdout).toBe(version.stdout);
		expect(again.stderr).toBe("");

		const tools = pnpmGantry(["tools", "--json"]);
		expect(tools.code).toBe(0);
		expect((JSON.parse(tools.stdout) as { name: string }[]).map((tool) => tool.name)).toContain("read");
	}, 240_000);

	it("passes gantry's exit code on without pnpm's ELIFECYCLE line", () => {
		const run = pnpmGantry(["--frobnicate"]);
		expect(run.code).toBe(2);
		expect(run.stdout).toBe("");
		expect(run.stderr).not.toContain("ELIFECYCLE");
		expect(run.stderr.trim().split("\n").at(-1)).toBe("gantry: Unknown option --frobnicate (see gantry --help)");
	}, 240_000);
});
