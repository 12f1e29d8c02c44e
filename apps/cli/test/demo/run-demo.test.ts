import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeWorkspace, runCli } from "../helpers/run-cli.js";

let workspace: ReturnType<typeof makeWorkspace>;
let demoRoot: string | undefined;

beforeEach(() => {
	workspace = makeWorkspace();
});
afterEach(() => {
	if (demoRoot) rmSync(demoRoot, { recursive: true, force: true });
	workspace.remove();
});

describe("gantry --demo", () => {
	it("plays the scripted session for real, offline, and leaves the fix in its folder", async () => {
		const run = await runCli(["--demo"], { cwd: workspace.project, home: workspace.home });
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		const project = /^Demo project: (.+)$/m.exec(run.stdout)?.[1];
		expect(project).toBeDefined();
		demoRoot = join(project as string, "..");

		// The fix is really in the copied project, and the blocked removal really did not happen.
		const cart = readFileSync(join(project as string, "src/cart.js"), "utf8");
		expect(cart).toContain("for (let index = 0; index < items.length; index++)");
		expect(cart).not.toContain("let index = 1");
		expect(existsSync(join(project as string, "build/bundle.js"))).toBe(true);

		// Every step is drawn: the parallel batch, the read, the edit's diff, the streamed test run, the
		// nested calls inside inspect's frame, and the blocked command.
		for (const step of [
			"╭─ ls .",
			"╭─ find **/*.js",
			"╭─ grep /cartTotal/",
			"╭─ read src/cart.js",
			"╭─ edit src/cart.js",
		]) {
			expect(run.stdout).toContain(step);
		}
		expect(run.stdout).toContain("+\tfor (let index = 0;");
		expect(run.stdout).toContain("╭─ $ node --test");
		expect(run.stdout).toContain("# fail 0");
		expect(run.stdout).toContain("╭─ inspect 1 search, 1 read");
		expect(run.stdout).toContain("│ ╭─ grep /index = 1/ src");
		expect(run.stdout).toContain("│ ╭─ read test/cart.test.js");
		expect(run.stdout).toContain("╭─ $ rm -rf build");
		expect(run.stdout).toContain("Blocked by the permission policy");
		expect(run.stdout).toMatch(/`node --test` now passes \((\d+) of \1\)/);

		// Nothing leaked into the person's home: the demo's transcript lives next to the project.
		expect(existsSync(join(workspace.home, ".gantry"))).toBe(false);
		const transcript = /^Transcript: +(.+)$/m.exec(run.stdout)?.[1] as string;
		expect(readFileSync(transcript, "utf8")).toContain('"toolName":"edit"');
	});
});
