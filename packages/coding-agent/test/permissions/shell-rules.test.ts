import { describe, expect, it } from "vitest";
import { analyzeShellCommand } from "../../src/index.js";
import { compilePermissionRules, judgeCall } from "../../src/permissions/permission-decision.js";
import { permissionRulesOf } from "../../src/permissions/permission-policy.js";

const bashAnnotations = { destructiveHint: true, openWorldHint: true };

async function decide(command: string, allow: string[], deny: string[] = [], mode: "ask" | "yes" = "ask") {
	const verdict = await judgeCall(
		compilePermissionRules(allow, deny),
		{ toolName: "bash", input: { command }, cwd: "/tmp", annotations: bashAnnotations },
		mode,
	);
	return verdict.decision;
}

describe("shell commands are judged on their parse", () => {
	const bypasses = [
		"npm test && touch F",
		"npm test || touch F",
		"npm test | touch F",
		"npm test `touch F`",
		"npm test $(touch F)",
		"npm test > F",
		"npm test >> F",
		"npm test &> F",
		"npm test >& F",
		"npm test 2> F",
		"npm test; touch F",
		"npm test\ntouch F",
		"npm test & touch F",
		"npm test &",
		"npm test <(touch F)",
		"npm test >(touch F)",
		'npm test "$(touch F)"',
		"X=$(touch F) npm test",
		"npm test $((a[$(touch F)]))",
		// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
		"npm test ${x@P}",
		"eval npm test",
		"exec npm test",
		"source ./npm",
		"if npm test; then touch F; fi",
		"npm test() { touch F; }",
		"npm test 'unclosed",
		"npm test <<EOF > F\nx\nEOF",
		"npm > F test",
		"$CMD test",
	];
	for (const command of bypasses) {
		it(`does not allow ${JSON.stringify(command)} with allowCommandPrefixes ["npm test"]`, async () => {
			const rules = permissionRulesOf({ allowCommandPrefixes: ["npm test"] });
			const verdict = await judgeCall(
				rules,
				{ toolName: "bash", input: { command }, cwd: "/tmp", annotations: bashAnnotations },
				"ask",
			);
			expect(verdict.decision).toBe("ask");
		});
	}

	it("allows what only runs allowed commands", async () => {
		expect(await decide("npm test", ["bash(npm test:*)"])).toBe("allow");
		expect(await decide("npm test -- --coverage", ["bash(npm test:*)"])).toBe("allow");
		expect(await decide("npm test 2>&1", ["bash(npm test:*)"])).toBe("allow");
		expect(await decide("npm test > /dev/null", ["bash(npm test:*)"])).toBe("allow");
		expect(await decide("npm test 2>/dev/null >&2 < input.txt", ["bash(npm test:*)"])).toBe("allow");
		expect(await decide('"npm" te\\st', ["bash(npm test:*)"])).toBe("allow");
		expect(await decide("git status && git diff", ["bash(git status)", "bash(git diff)"])).toBe("allow");
		expect(await decide("git status | git diff; git status", ["bash(git status)", "bash(git diff:*)"])).toBe("allow");
		expect(await decide("npm test $HOME", ["bash(npm test:*)"])).toBe("allow");
	});

	it("matches exact rules exactly and prefixes word by word", async () => {
		expect(await decide("git push --force", ["bash(git push)"])).toBe("ask");
		expect(await decide("npm testing", ["bash(npm test:*)"])).toBe("ask");
		expect(await decide("npm $T", ["bash(npm test:*)"])).toBe("ask");
		expect(await decide("CI=1 npm test", ["bash(npm test:*)"])).toBe("ask");
		expect(await decide("CI=1 npm test", ["bash(CI=1 npm test:*)"])).toBe("allow");
		expect(await decide("git push && git fetch", ["bash(git push)"])).toBe("ask");
	});

	it("lets deny rules see every simple command, substitutions included", async () => {
		expect(await decide("npm test && rm -rf x", ["bash"], ["bash(rm:*)"])).toBe("deny");
		expect(await decide("echo $(rm -rf x)", ["bash"], ["bash(rm:*)"])).toBe("deny");
		expect(await decide("echo $(rm -rf x)", [], ["bash(rm:*)"], "yes")).toBe("deny");
		expect(await decide("echo ok", [], ["bash(rm:*)"], "yes")).toBe("allow");
		expect(await decide("rm 'unclosed", [], ["bash(rm:*)"], "ask")).toBe("deny");
		// A line that does not parse cannot be shown free of denied commands: blocked even in yes mode.
		expect(await decide("echo 'unclosed", [], ["bash(rm:*)"], "yes")).toBe("deny");
		expect(await decide("echo 'unclosed", ["bash"], ["bash(rm:*)"], "ask")).toBe("ask");
	});

	it("names the parsed commands and what else would run", async () => {
		const analysis = await analyzeShellCommand("npm test && touch F > out.txt");
		expect(analysis.commands.map((command) => command.text)).toEqual(["npm test", "touch F"]);
		expect(analysis.problems).toEqual(["a redirection to a file (> out.txt)"]);
		const unparsed = await analyzeShellCommand("echo 'open");
		expect(unparsed.parsed).toBe(false);
		expect(unparsed.problems).toContain("the command does not parse as bash");
		const huge = await analyzeShellCommand(`echo ${"x".repeat(200_000)}`);
		expect(huge.parsed).toBe(false);
	});
});
