import { spawnSync } from "node:child_process";
import { mkdir, readdir, readFile, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { createAgentSession, createPermissionPolicy } from "../../src/index.js";
import { compilePermissionRules, judgeCall } from "../../src/permissions/permission-decision.js";
import { textOf, toolResults, withTempDir } from "../session/helpers.js";

const SECRET = "TOPSECRET-4242";

/** A project with `secret/a.txt`, `src/x.txt`, and `innocent`, a link to the secret. */
async function project(cwd: string): Promise<void> {
	await mkdir(join(cwd, "secret"));
	await mkdir(join(cwd, "src"));
	await writeFile(join(cwd, "secret", "a.txt"), `${SECRET}\n`);
	await writeFile(join(cwd, "src", "x.txt"), "public\n");
	await symlink(join("secret", "a.txt"), join(cwd, "innocent"));
}

function runBash(command: string, cwd: string): string {
	const result = spawnSync("bash", ["-c", command], { cwd, stdio: ["ignore", "pipe", "pipe"], timeout: 10_000 });
	return `${result.stdout?.toString() ?? ""}${result.stderr?.toString() ?? ""}`;
}

/** What the secret folder holds: names, contents and modes. */
async function secretState(cwd: string): Promise<string> {
	const folder = join(cwd, "secret");
	const names = await readdir(folder).catch(() => ["<gone>"]);
	const parts = await Promise.all(
		names.sort().map(async (name) => {
			const path = join(folder, name);
			const info = await stat(path).catch(() => undefined);
			const content = info?.isFile() ? await readFile(path, "utf8") : "";
			return `${name}:${info?.mode ?? "-"}:${content}`;
		}),
	);
	return parts.join("|");
}

/** Commands that print the secret when bash runs them (checked), and must be blocked under read(secret/**). */
const READS = [
	"cat secret/a.txt",
	"cat ./secret/../secret/a.txt",
	"cat se''cret/a.txt",
	"cat 'secret'/a.txt",
	"head secret/a.txt",
	"tail -n 1 secret/a.txt",
	"tac secret/a.txt",
	"nl secret/a.txt",
	"less secret/a.txt",
	"more secret/a.txt",
	"grep TOP secret/a.txt",
	"grep -r TOP secret",
	"rg TOP secret/a.txt",
	"awk 1 secret/a.txt",
	"sed -n p secret/a.txt",
	"sort secret/a.txt",
	"strings secret/a.txt",
	"xxd secret/a.txt",
	"base64 secret/a.txt | base64 -d",
	"dd if=secret/a.txt status=none",
	"cp secret/a.txt copy && cat copy",
	"cat < secret/a.txt",
	"while read -r line; do echo $line; done < secret/a.txt",
	"cat innocent",
	"cat secret/*",
	"cat secret/a.tx?",
	"cat secret/{a,b}.txt",
	"cat s*/a.txt",
	"cd secret && cat a.txt",
	"cd secret; cat a.txt",
	"env cat secret/a.txt",
	"timeout 5 cat secret/a.txt",
	"nice cat secret/a.txt",
	"bash -c 'cat secret/a.txt'",
	"sh -c 'cat < secret/a.txt'",
	"source secret/a.txt",
	". secret/a.txt",
	"tar cf - secret | tar xOf -",
	"cat secret/a.txt | wc -c; cat secret/a.txt",
	"echo $(cat secret/a.txt)",
	"ln -s secret/a.txt link && cat link",
	"ln secret/a.txt hard && cat hard",
	"mv secret/a.txt moved && cat moved",
	"cat /proc/self/cwd/secret/a.txt",
	"git init -q && git add -A && git -c user.name=x -c user.email=x@x commit -qm x && rm secret/a.txt && git show HEAD:secret/a.txt",
];

/** Commands that change the secret folder when bash runs them (checked), blocked under edit(secret/**). */
const WRITES = [
	"echo x > secret/a.txt",
	"echo x >> secret/a.txt",
	"echo x >| secret/a.txt",
	"echo x &> secret/a.txt",
	"> secret/a.txt",
	"echo x | tee secret/a.txt",
	"cat > secret/a.txt <<EOF\nx\nEOF",
	"cp src/x.txt secret/a.txt",
	"cp -t secret src/x.txt",
	"install src/x.txt secret/a.txt",
	"mv src/x.txt secret/a.txt",
	"mv secret gone",
	"rm secret/a.txt",
	"rm -rf secret",
	"rm -r *",
	"find . -delete",
	"unlink secret/a.txt",
	"shred -u secret/a.txt",
	"sed -i s/TOP/BOT/ secret/a.txt",
	"perl -pi -e s/TOP/BOT/ secret/a.txt",
	"truncate -s 0 secret/a.txt",
	"dd if=src/x.txt of=secret/a.txt status=none",
	"sort -o secret/a.txt src/x.txt",
	"touch secret/new",
	"mkdir secret/sub",
	"chmod 000 secret/a.txt",
	"ln -sf /dev/null secret/a.txt",
	"find secret -name a.txt -delete",
	"echo x > innocent",
	"echo x > secret/*.txt",
	"cd secret && echo x > a.txt",
	"bash -c 'echo x > secret/a.txt'",
	"env rm secret/a.txt",
	"xargs rm <<< secret/a.txt",
];

async function judge(
	cwd: string,
	command: string,
	deny: string[],
	allow: string[] = ["bash"],
	mode: "ask" | "yes" = "ask",
) {
	return judgeCall(
		compilePermissionRules(allow, deny),
		{ toolName: "bash", input: { command }, cwd, annotations: undefined },
		mode,
	);
}

describe("path deny rules reach the shell, without a sandbox", () => {
	it("reads: every command prints the secret when bash runs it, and each is blocked under read(secret/**)", () =>
		withTempDir(async (cwd) => {
			await project(cwd);
			const harmless: string[] = [];
			for (const command of READS) {
				await withTempDir(async (scratch) => {
					await project(scratch);
					if (!runBash(command, scratch).includes(SECRET)) harmless.push(command);
				});
			}
			expect(harmless).toEqual([]);
			const passed: string[] = [];
			for (const command of READS) {
				const verdict = await judge(cwd, command, ["read(secret/**)"]);
				if (verdict.decision === "allow") passed.push(command);
				if (verdict.decision === "deny") expect(verdict.reason).toContain("read(secret/**)");
			}
			expect(passed).toEqual([]);
		}));

	it("names the rule and the file for a plain read, with bash allowed", () =>
		withTempDir(async (cwd) => {
			await project(cwd);
			const verdict = await judge(cwd, "cat secret/a.txt", ["read(secret/**)"]);
			expect(verdict.decision).toBe("deny");
			expect(verdict.reason).toBe("the deny rule read(secret/**) (cat reads secret/a.txt)");
			const redirect = await judge(cwd, "wc -l < secret/a.txt", ["read(secret/**)"]);
			expect(redirect.decision).toBe("deny");
			expect(redirect.reason).toContain("< secret/a.txt");
		}));

	it("writes: every command changes the secret folder when bash runs it, and each is blocked under edit(secret/**)", () =>
		withTempDir(async (cwd) => {
			const harmless: string[] = [];
			for (const command of WRITES) {
				await withTempDir(async (scratch) => {
					await project(scratch);
					const before = await secretState(scratch);
					runBash(command, scratch);
					if ((await secretState(scratch)) === before) harmless.push(command);
				});
			}
			expect(harmless).toEqual([]);
			await project(cwd);
			const passed: string[] = [];
			for (const command of WRITES) {
				const verdict = await judge(cwd, command, ["edit(secret/**)"], [], "yes");
				if (verdict.decision !== "deny") passed.push(command);
			}
			expect(passed).toEqual([]);
		}));

	it("lets what touches other files through: reading src under read(secret/**), writing src under edit(secret/**)", () =>
		withTempDir(async (cwd) => {
			await project(cwd);
			for (const command of ["cat src/x.txt", "grep -r public src", "cat src/*", "echo secret/a.txt"]) {
				expect((await judge(cwd, command, ["read(secret/**)"])).decision, command).toBe("allow");
			}
			for (const command of ["echo x > src/y.txt", "cp secret/a.txt src/copy.txt", "rm -rf src", "cat secret/a.txt"]) {
				expect((await judge(cwd, command, ["edit(secret/**)"], [], "yes")).decision, command).toBe("allow");
			}
		}));

	it("judges a folder changed whole by what its tree holds, for a pattern of any depth", () =>
		withTempDir(async (cwd) => {
			await project(cwd);
			await mkdir(join(cwd, "node_modules", "pkg"), { recursive: true });
			await writeFile(join(cwd, "node_modules", "pkg", "index.js"), "x\n");
			expect((await judge(cwd, "rm -rf node_modules", ["edit(**/.env)"], [], "yes")).decision).toBe("allow");
			expect((await judge(cwd, "rm -rf .", ["edit(**/.env)"], [], "yes")).decision).toBe("deny");
			await writeFile(join(cwd, "node_modules", "pkg", ".env"), "KEY=1\n");
			const verdict = await judge(cwd, "rm -rf node_modules", ["edit(**/.env)"], [], "yes");
			expect(verdict.decision).toBe("deny");
			expect(verdict.reason).toContain("edit(**/.env)");
			expect((await judge(cwd, "mv src elsewhere", ["edit(secret/**)"], [], "yes")).decision).toBe("allow");
			expect((await judge(cwd, "patch -p1 < fix.diff", ["edit(secret/**)"], [], "yes")).decision).toBe("deny");
		}));

	it("takes Claude Code's rule names: Read(…) for what a line reads, Edit(…) and Write(…) for what it changes", () =>
		withTempDir(async (cwd) => {
			await project(cwd);
			const read = await judge(cwd, "cat secret/a.txt", ["Read(secret/**)"]);
			expect(read.decision).toBe("deny");
			expect(read.reason).toContain("Read(secret/**)");
			expect((await judge(cwd, "rm secret/a.txt", ["Edit(secret/**)"], [], "yes")).decision).toBe("deny");
			expect((await judge(cwd, "echo x > secret/a.txt", ["Write(secret/**)"], [], "yes")).decision).toBe("deny");
			// A rule for one other tool, or on reads, does not judge what a line changes.
			expect((await judge(cwd, "cat secret/a.txt", ["Grep(secret/**)"])).decision).toBe("allow");
			expect((await judge(cwd, "rm secret/a.txt", ["Read(secret/**)"], [], "yes")).decision).toBe("allow");
		}));

	it("cannot check a path it cannot read before the line runs: it asks, and blocks in yes mode", () =>
		withTempDir(async (cwd) => {
			await project(cwd);
			const asked = await judge(cwd, 'f=secret/a.txt; cat "$f"', ["read(secret/**)"]);
			expect(asked.decision).toBe("ask");
			expect(asked.reason).toContain("cannot be checked");
			expect((await judge(cwd, 'cat "$F"', ["read(secret/**)"], [], "yes")).decision).toBe("deny");
			expect((await judge(cwd, "tar xf archive.tar", ["edit(secret/**)"], [], "yes")).decision).toBe("deny");
		}));

	it("blocks a read of the secret through a session with bash allowed, and the secret never reaches the model", () =>
		withTempDir(async (cwd) => {
			await project(cwd);
			const calls = ["cat secret/a.txt", "cat innocent", "cat src/x.txt"].map((command, index) => ({
				id: `c${index}`,
				name: "bash",
				arguments: { command },
			}));
			const model = createFauxModel([{ toolCalls: calls }, { text: "done" }]);
			const session = await createAgentSession({
				cwd,
				model,
				tools: ["bash"],
				extensions: [createPermissionPolicy({ permissions: { allow: ["bash"], deny: ["read(secret/**)"] } })],
			});
			try {
				await session.prompt("go");
			} finally {
				await session.dispose();
			}
			const results = toolResults(session.messages);
			expect(results.map((result) => result.isError)).toEqual([true, true, false]);
			expect(textOf(results[0] ?? { content: [] })).toContain("read(secret/**)");
			expect(results.map((result) => textOf(result)).join("\n")).not.toContain(SECRET);
		}));
});
