import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startInteractiveGantry, useInteractiveFixture } from "../helpers/interactive-fixture.js";

const bwrapRuns = ["/usr/bin/bwrap", "/bin/bwrap"].some((path) => existsSync(path));

describe("the interactive banner", () => {
	const cli = useInteractiveFixture();

	it.skipIf(!bwrapRuns)("says the sandbox is on with --sandbox", async () => {
		const gantry = await startInteractiveGantry(cli, ["--sandbox"], { width: 220 });
		expect(gantry.capture()).toMatch(/Sandbox: on \(bash runs in the OS sandbox.*from --sandbox\)/);
	});

	it("says it is off without it", async () => {
		const gantry = await startInteractiveGantry(cli, [], { width: 220 });
		expect(gantry.capture()).toContain("Sandbox: off");
	});
});
