import { describe, expect, it } from "vitest";
import { analyzeShellCommand } from "../../src/index.js";
import { commandPrefixOf, commandPrefixRule } from "../../src/permissions/command-prefix.js";
import { commandMatches } from "../../src/permissions/permission-decision.js";
import { parsePermissionRule } from "../../src/permissions/permission-rules.js";

async function prefixOf(line: string) {
	const analysis = await analyzeShellCommand(line);
	expect(analysis.commands).toHaveLength(1);
	return commandPrefixOf(analysis.commands[0]!);
}

describe("the prefix that always remembers", () => {
	const remembered: [string, string[]][] = [
		["npm test -- --watch", ["npm", "test"]],
		["git status -s", ["git", "status"]],
		["ls -la src", ["ls"]],
		["rm -rf build", ["rm"]],
		["cat README.md", ["cat"]],
		["./scripts/check.sh --fast", ["./scripts/check.sh"]],
		["npm run build -- --watch", ["npm", "run", "build"]],
		["pnpm exec tsc --noEmit", ["pnpm", "exec", "tsc"]],
		["npx vitest run", ["npx", "vitest"]],
		["uv run pytest -x", ["uv", "run", "pytest"]],
		["make test", ["make", "test"]],
		["CI=1 npm test", ["CI=1", "npm", "test"]],
		['"git" "status"', ["git", "status"]],
		["'my tool' --flag", ["my tool"]],
	];
	for (const [line, words] of remembered) {
		it(`is ${JSON.stringify(words.join(" "))} for ${JSON.stringify(line)}`, async () => {
			expect(await prefixOf(line)).toEqual({ words });
		});
	}

	const refused: [string, string][] = [
		["sudo rm -rf /", "`sudo` runs other commands"],
		["/usr/bin/env rm x", "`env` runs other commands"],
		["xargs rm", "`xargs` runs other commands"],
		["find . -delete", "`find` runs other commands"],
		["node -e 'process.exit()'", "`node` runs other commands"],
		["git -C other status", "no sub-command follows `git`"],
		["git", "no sub-command follows `git`"],
		["npm $TASK", "no sub-command follows `npm`"],
		["npx -y cowsay", "no name of what it runs follows `npx`"],
		["npm run", "no name of what it runs follows `npm run`"],
		["pnpm exec --silent tsc", "no name of what it runs follows `pnpm exec`"],
		["np* test", "starts with np*, which is not a fixed word"],
		["git st?tus", "no sub-command follows `git`"],
	];
	for (const [line, why] of refused) {
		it(`refuses ${JSON.stringify(line)}`, async () => {
			const prefix = await prefixOf(line);
			expect(prefix).toEqual({ refused: expect.stringContaining(why) });
		});
	}

	const odd = ["it's", 'say "hi"', "back\\slash", "a b", "star*", "semi;colon", "paren)"];
	for (const word of odd) {
		it(`writes ${JSON.stringify(word)} as a rule that reads back as that word`, async () => {
			const rule = parsePermissionRule(commandPrefixRule("bash", [word]));
			expect(rule).toMatchObject({ kind: "command", words: [word], prefix: true });
			expect(commandMatches(rule, { words: [{ text: word, literal: true }], text: word })).toBe(true);
		});
	}

	it("writes plain words bare", () => {
		expect(commandPrefixRule("bash", ["npm", "run", "build:prod"])).toBe("bash(npm run build:prod:*)");
		expect(commandPrefixRule("bash", ["CI=1", "./x.sh"])).toBe("bash(CI=1 ./x.sh:*)");
	});
});
