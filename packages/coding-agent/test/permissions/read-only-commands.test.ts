import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { createAgentSession, createPermissionPolicy } from "../../src/index.js";
import { compilePermissionRules, judgeCall } from "../../src/permissions/permission-decision.js";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";

const bashAnnotations = { destructiveHint: true, openWorldHint: true };

async function decide(command: string, deny: string[] = [], cwd = "/tmp") {
	const verdict = await judgeCall(
		compilePermissionRules([], deny),
		{ toolName: "bash", input: { command }, cwd, annotations: bashAnnotations },
		"ask",
	);
	return verdict.decision;
}

/** Lines made only of read-only programs with safe words: they run without asking. */
const READ_ONLY = [
	"ls",
	"ls -la src",
	"ls *.json",
	"cat package.json",
	"head -n 5 package.json",
	"tail -n 2 package.json",
	"wc -l package.json",
	"grep -rn name .",
	"grep -n name *.json",
	"rg name",
	"rg -n --glob '*.json' name",
	"find . -name '*.json'",
	"find . -type f -newer package.json",
	"git status",
	"git status --short",
	"git log --oneline -5",
	"git log -p -1",
	"git diff",
	"git diff --no-ext-diff HEAD",
	"git show HEAD --stat",
	"git -C . status",
	"git --no-pager log -1",
	"git branch",
	"git branch --show-current",
	"pwd",
	"echo hello",
	"printf '%s\\n' a b",
	"which bash",
	"file package.json",
	"stat package.json",
	"du -sh .",
	"sort package.json",
	"sort -r -k 2 package.json",
	"uniq -c package.json",
	"cut -d : -f 1 package.json",
	"tr a-z A-Z < package.json",
	"nl package.json",
	"sed -n 1,3p package.json",
	"true",
	"ls | wc -l",
	"cat package.json | grep name | sort | uniq -c",
	"git status && git diff",
	"ls; pwd",
	"ls nothing || echo missing",
	"ls 2>/dev/null",
	"ls 2>&1",
	"(ls; pwd)",
	"cd src && ls",
	"LC_ALL=C sort package.json",
	"GIT_PAGER=cat git log -1",
];

/** Lines that write, run other programs, never end, or change what runs: they ask. */
const NOT_READ_ONLY = [
	"sort -o out.txt package.json",
	"sort --output=out.txt package.json",
	"sort --out=out.txt package.json",
	"sort --compress-program=sh package.json",
	"find . -exec rm {} ;",
	"find . -execdir touch x ;",
	"find . -delete",
	"find . -fprint list.txt",
	"find . -fls list.txt",
	"find . -fprintf list.txt %p",
	"find *",
	"git diff --output=out.patch",
	"git log --outp=out.patch",
	"git diff --ext-diff",
	"git show --textconv HEAD",
	"git -c core.pager=touch log",
	"git -ccore.pager=touch log",
	"git --config-env=core.pager=X log",
	"git -p log",
	"git push",
	"git commit -m x",
	"git branch -D main",
	"git branch new-branch",
	"git checkout status",
	"rg --pre touch x",
	"rg --pre=touch x",
	"rg -z x",
	"rg --search-zip x",
	"tail -f package.json",
	"tail -F package.json",
	"tail --follow package.json",
	"tail -3f package.json",
	"tail +1f package.json",
	"less package.json",
	"more package.json",
	"sed -i s/a/b/ package.json",
	"sed s/a/b/ package.json",
	"sed -n '1e touch x' package.json",
	"awk '{ print }' package.json",
	"echo hi > out.txt",
	"echo hi >> out.txt",
	"ls > out.txt",
	"cat package.json | tee out.txt",
	"cat $(echo package.json)",
	"ls `pwd`",
	"PATH=. ls",
	"LD_PRELOAD=x.so ls",
	"FOO=1 ls",
	"X=1",
	"printf -v x hi",
	"uniq package.json out.txt",
	"xxd package.json out.txt",
	"date -s 2020-01-01",
	"hostname evil",
	"file -C -m magic",
	"base64 -o out.txt package.json",
	"env",
	"printenv",
	"ls; touch x",
	"ls && rm -rf x",
	"ls | sh",
	"./ls",
	"/tmp/ls",
	"command ls",
	"bash -c ls",
	"ls &",
	"if true; then ls; fi",
	"watch ls",
	"xargs ls",
	"cat < /dev/tcp/127.0.0.1/9",
];

describe("read-only commands run without asking", () => {
	for (const command of READ_ONLY) {
		it(`runs ${JSON.stringify(command)} without asking`, async () => {
			expect(await decide(command)).toBe("allow");
		});
	}
	for (const command of NOT_READ_ONLY) {
		it(`asks for ${JSON.stringify(command)}`, async () => {
			expect(await decide(command)).toBe("ask");
		});
	}

	it("asks when PATH has a folder that is not absolute: a project file named ls could run", async () => {
		const saved = process.env.PATH;
		process.env.PATH = `.:${saved ?? ""}`;
		try {
			expect(await decide("ls")).toBe("ask");
		} finally {
			process.env.PATH = saved;
		}
		expect(await decide("ls")).toBe("allow");
	});

	it("lets deny rules win over a read-only command", () =>
		withTempDir(async (cwd) => {
			await mkdir(join(cwd, "secret"));
			await writeFile(join(cwd, "secret", "a.txt"), "x\n");
			expect(await decide("ls", ["bash(ls:*)"], cwd)).toBe("deny");
			expect(await decide("cat secret/a.txt", ["read(secret/**)"], cwd)).toBe("deny");
			expect(await decide("git status", ["bash(git status)"], cwd)).toBe("deny");
			expect(await decide("cat package.json", ["read(secret/**)"], cwd)).toBe("allow");
		}));

	it("runs ls, cat and git status in print mode (no UI, no --yes), and still blocks a write", () =>
		withTempDir(async (cwd) => {
			await writeFile(join(cwd, "notes.txt"), "read me\n");
			const init = spawnSync("git", ["init", "-q"], { cwd });
			expect(init.status).toBe(0);
			const commands = ["ls", "cat notes.txt", "git status --short", "touch made.txt"];
			const model = createFauxModel([
				{ toolCalls: commands.map((command, index) => ({ id: `c${index}`, name: "bash", arguments: { command } })) },
				{ text: "done" },
			]);
			const session = await createAgentSession({ cwd, model, tools: ["bash"], extensions: [createPermissionPolicy()] });
			try {
				await session.prompt("go");
			} finally {
				await session.dispose();
			}
			const results = toolResults(session.messages);
			expect(results.map((result) => result.isError)).toEqual([false, false, false, true]);
			expect(textOf(results[0] ?? { content: [] })).toContain("notes.txt");
			expect(textOf(results[1] ?? { content: [] })).toContain("read me");
			expect(textOf(results[2] ?? { content: [] })).toContain("?? notes.txt");
			expect(textOf(results[3] ?? { content: [] })).toContain("--yes");
			expect(existsSync(join(cwd, "made.txt"))).toBe(false);
		}));
});
