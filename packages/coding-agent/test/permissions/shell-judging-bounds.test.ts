import { describe, expect, it } from "vitest";
import { judgeCall } from "../../src/permissions/permission-decision.js";
import { permissionRulesOf } from "../../src/permissions/permission-policy.js";

const rules = permissionRulesOf({ permissions: { deny: ["bash(rm:*)", "read(**/.env)", "edit(**/.env)"] } });

async function decide(command: string) {
	return (
		await judgeCall(rules, { toolName: "bash", input: { command }, cwd: process.cwd(), annotations: undefined }, "yes")
	).decision;
}

/** A hostile model controls the whole line: none of these may stall the judge (each ends well within the test's timeout). */
describe("shell judging stays bounded on hostile lines", () => {
	it("a sed script full of backslashes (the `s///e` check)", async () => {
		expect(await decide(`sed 's/${"\\\\".repeat(40)}x' file`)).toBe("allow");
	});

	it("a word with an open brace and fifty thousand commas (too long a name to look up: blocked, briefly said)", async () => {
		const verdict = await judgeCall(
			rules,
			{ toolName: "bash", input: { command: `ls {${",".repeat(50_000)}` }, cwd: process.cwd(), annotations: undefined },
			"yes",
		);
		expect(verdict.decision).toBe("deny");
		expect(verdict.reason.length).toBeLessThan(600);
	});

	it("a here-document line of backslashes", async () => {
		expect(await decide(`cat <<EOF\n${"\\".repeat(50_000)}x\nEOF`)).toBe("allow");
	});

	it("a brace bomb and a deep glob", async () => {
		expect(await decide(`cat ${"{a,b}".repeat(24)}`)).toBe("deny");
		expect(await decide("cat /*/*/*/*/*/*/*")).toBe("deny");
	});

	it("shells inside shells, twenty deep", async () => {
		let line = "rm x";
		for (let depth = 0; depth < 20; depth++) line = `bash -c ${JSON.stringify(line)}`;
		expect(await decide(line)).toBe("deny");
	});
});
