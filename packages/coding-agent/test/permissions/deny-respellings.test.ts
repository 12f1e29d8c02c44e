import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { createAgentSession, createPermissionPolicy } from "../../src/index.js";
import { judgeCall } from "../../src/permissions/permission-decision.js";
import { permissionRulesOf } from "../../src/permissions/permission-policy.js";
import { toolResults, withTempDir } from "../session/helpers.js";

/**
 * Ways to delete the file V that bash runs here (each is checked to delete it without the policy). `./zap`
 * is a link to /bin/rm made before the line runs; `zap2`, `zap3` are made by the line itself.
 */
const SPELLINGS = [
	"rm V",
	"rm -f V",
	"rm -- V",
	"\\rm V",
	"r''m V",
	'"rm" V',
	"'rm' V",
	'r"m" V',
	"r\\m V",
	"$'rm' V",
	"rm\tV",
	"r\\\nm V",
	"FOO=1 rm V",
	"FOO=1 BAR=2 rm V",
	"PATH=/bin:$PATH rm V",
	"command rm V",
	"command -p rm V",
	"builtin command rm V",
	"command exec rm V",
	"/bin/rm V",
	"/usr/bin/rm V",
	"/bin/../bin/rm V",
	"/bin//rm V",
	'"/bin/rm" V',
	"./zap V",
	"env rm V",
	"env -i rm V",
	"env FOO=1 rm V",
	"env -- rm V",
	"env -S 'rm V'",
	"nice rm V",
	"nice -n 5 rm V",
	"nice -- rm V",
	"nohup rm V",
	"timeout 5 rm V",
	"timeout -s KILL 5 rm V",
	"timeout 5 env nice rm V",
	"time rm V",
	"time -p rm V",
	"exec rm V",
	"exec -a foo rm V",
	"stdbuf -o0 rm V",
	"setsid -w rm V",
	"ionice -c 3 rm V",
	"taskset -c 0 rm V",
	"eval rm V",
	'eval "rm V"',
	"bash -c 'rm V'",
	"sh -c 'rm V'",
	"dash -c 'rm V'",
	"bash -lc 'rm V'",
	"bash -c \"bash -c 'rm V'\"",
	"bash -c 'r''m V'",
	"sh -c 'command rm \"$1\"' _ V",
	"sh -c 'eval \"rm V\"'",
	"nohup bash -c 'rm V'",
	'bash -c "$(echo rm V)"',
	"echo 'rm V' | sh",
	"sh <<< 'rm V'",
	"bash <<'EOF'\nrm V\nEOF",
	"echo V | xargs rm",
	"xargs rm <<< V",
	"xargs -I{} rm {} <<< V",
	"printf 'V\\0' | xargs -0 rm",
	"ls | grep -x V | xargs rm",
	"find . -name V -exec rm {} \\;",
	"find . -name V -exec rm {} +",
	"find . -name V -execdir rm {} \\;",
	"$'\\x72m' V",
	"$(echo rm) V",
	"`echo rm` V",
	"$(printf '\\x72\\x6d') V",
	'"$(echo rm)" V',
	"r$()m V",
	"rm{,} V",
	"/b?n/rm V",
	"/bin/r[m] V",
	"/???/rm V",
	"x=rm; $x V",
	'x=rm; "$x" V',
	// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
	"${x:-rm} V",
	// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
	"${PWD:0:0}rm V",
	"rm$IFS V",
	"true; rm V",
	"true && rm V",
	"false || rm V",
	"(rm V)",
	"{ rm V; }",
	"echo | rm V",
	"! { rm V; }",
	"time { rm V; }",
	"coproc { rm V; }; wait",
	"while ! { rm V; }; do break; done",
	"echo `echo \\`rm V\\``",
	"cat <(rm V)",
	"echo $(rm V)",
	'echo "`rm V`"',
	"cat <<EOF\n`rm V`\nEOF",
	"cat <<EOF\n$(rm V)\nEOF",
	"if true; then rm V; fi",
	"for f in V; do rm $f; done",
	'f() { rm "$@"; }; f V',
	"coproc rm V; wait",
	"rm V & wait",
	"cd . && rm V",
	"ln -s /bin/rm zap2 && ./zap2 V",
	"cp /bin/rm zap3 && ./zap3 V",
	"hash -p /bin/rm zz; zz V",
	"shopt -s expand_aliases\nalias r=rm\nr V",
	"trap 'rm V' EXIT",
	"script -qc 'rm V' /dev/null",
	"flock /tmp/gantry-shell-respell-lock rm V",
	"tar cf /dev/null --checkpoint=1 --checkpoint-action=exec='rm V' /etc/hostname",
	"BASH_ENV=<(echo rm V) bash -c true",
	"env 'BASH_FUNC_f%%=() { rm V; }' bash -c f",
	"x='a[$(rm V)]'; echo $(( x ))",
	"x='a[$(rm V)]'; declare -i y; y=$x",
	"printf -v 'a[$(rm V)]' x",
	// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
	"x='$(rm V)'; echo \"${x@P}\"",
	// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
	"x='a[$(rm V)]'; echo \"${!x}\"",
	"x='a[$(rm V)]'; [[ -v $x ]]",
	"x='a[$(rm V)]'; test -v \"$x\"",
	"declare -n r='a[$(rm V)]'; echo $r",
	"mapfile -C 'rm V;:' -c 1 <<< line",
	"perl -e 'unlink \"V\"'",
	"perl -e 'system(\"rm V\")'",
	"python3 -c 'import os; os.remove(\"V\")'",
	"python3 -c \"__import__('os').system('rm V')\"",
	'node -e \'require("fs").unlinkSync("V")\'',
	"awk 'BEGIN { system(\"rm V\") }'",
	"echo x | sed 'e rm V'",
	"git -c alias.x='!rm V' x",
];

/** Spellings this machine may not run (no sudo, doas, busybox, zsh; chroot needs root): judged only. */
const JUDGED_ONLY = [
	"sudo rm V",
	"sudo -u root rm V",
	"sudo -s rm V",
	"doas rm V",
	"busybox rm V",
	"toybox rm V",
	"chroot / rm V",
	"zsh -c 'rm V'",
	"zsh -c '=rm V'",
	"ksh -c 'rm V'",
	"fish -c 'rm V'",
	"find . -name V -ok rm {} \\;",
	"watch rm V",
	"parallel rm ::: V",
	"su -c 'rm V'",
	"ssh localhost rm V",
	"pnpm exec rm V",
	"npx rm V",
	"unbuffer rm V",
	"cross-env FOO=1 rm V",
	"strace -f rm V",
	"git rebase -x 'rm V' HEAD",
	"vim -c '!rm V' -c q",
	"docker run --rm -v $PWD:/w alpine rm /w/V",
	"git config alias.x '!rm V'",
	// bash ignores PS4 from the environment when run as root, so this runs only for other users.
	"env SHELLOPTS=xtrace PS4='$(rm V)' bash -c :",
	"PS4='$(rm V)' bash -xc :",
];

const victimOf = (index: number) => `victim-${index}`;
const spelled = (spelling: string, index: number) => spelling.replace(/\bV\b/g, victimOf(index));

/** A folder holding the victim file and the `./zap` link, for one spelling or for all of them. */
async function stage(folder: string, indexes: number[]): Promise<void> {
	await symlink("/bin/rm", join(folder, "zap"));
	for (const index of indexes) await writeFile(join(folder, victimOf(index)), "keep me\n");
}

/** Runs a line with real bash in `cwd`, input closed, as the bash tool does; resolves when it ends. */
function runBash(command: string, cwd: string): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn("bash", ["-c", command], { cwd, env: process.env, stdio: ["ignore", "ignore", "ignore"] });
		const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
		child.on("error", reject);
		child.on("close", () => {
			clearTimeout(timer);
			resolve();
		});
	});
}

describe("a deny rule on a command cannot be respelled (bash(rm:*) in yes mode)", () => {
	it(`has ${SPELLINGS.length} spellings, each of which deletes its file when bash runs it without the policy`, async () => {
		const survived: string[] = [];
		for (let start = 0; start < SPELLINGS.length; start += 8) {
			const batch = SPELLINGS.slice(start, start + 8).map(async (spelling, offset) => {
				const index = start + offset;
				const folder = await mkdtemp(join(tmpdir(), "gantry-respell-"));
				try {
					await stage(folder, [index]);
					await runBash(spelled(spelling, index), folder);
					if (existsSync(join(folder, victimOf(index)))) survived.push(spelling);
				} finally {
					await rm(folder, { recursive: true, force: true });
				}
			});
			await Promise.all(batch);
		}
		expect(survived).toEqual([]);
		expect(SPELLINGS.length).toBeGreaterThanOrEqual(100);
	}, 120_000);

	it(
		"blocks every spelling under the policy: each file survives, and a harmless command still runs",
		() =>
			withTempDir(async (cwd) => {
				const indexes = SPELLINGS.map((_spelling, index) => index);
				await stage(cwd, indexes);
				const calls = SPELLINGS.map((spelling, index) => ({
					id: `call-${index}`,
					name: "bash",
					arguments: { command: spelled(spelling, index) },
				}));
				calls.push({ id: "harmless", name: "bash", arguments: { command: "touch ran-in-yes-mode" } });
				const model = createFauxModel([{ toolCalls: calls }, { text: "done" }]);
				const session = await createAgentSession({
					cwd,
					model,
					tools: ["bash"],
					extensions: [createPermissionPolicy({ mode: "yes", permissions: { deny: ["bash(rm:*)"] } })],
				});
				try {
					await session.prompt("go");
				} finally {
					await session.dispose();
				}
				const deleted = SPELLINGS.filter((_spelling, index) => !existsSync(join(cwd, victimOf(index))));
				expect(deleted).toEqual([]);
				const results = toolResults(session.messages);
				const ran = results.filter((result) => !result.isError).map((result) => result.toolCallId);
				expect(ran).toEqual(["harmless"]);
				expect(existsSync(join(cwd, "ran-in-yes-mode"))).toBe(true);
			}),
		120_000,
	);

	it("follows a bare name to where PATH takes it: a link named zapp in a PATH folder is rm", () =>
		withTempDir(async (cwd) => {
			const bin = join(cwd, "bin");
			await mkdir(bin);
			await symlink("/bin/rm", join(bin, "zapp"));
			await writeFile(join(cwd, "victim"), "keep me\n");
			const saved = process.env.PATH;
			process.env.PATH = `${bin}:${saved ?? ""}`;
			try {
				const rules = permissionRulesOf({ permissions: { deny: ["bash(rm:*)"] } });
				const verdict = await judgeCall(
					rules,
					{ toolName: "bash", input: { command: "zapp victim" }, cwd, annotations: undefined },
					"yes",
				);
				expect(verdict.decision).toBe("deny");
				expect(verdict.reason).toContain("bash(rm:*)");
				await runBash("zapp victim", cwd);
				expect(existsSync(join(cwd, "victim"))).toBe(false);
			} finally {
				process.env.PATH = saved;
			}
		}));

	it("sees a sub-command past the options before it: bash(git push:*) blocks git -C . --no-pager push", () =>
		withTempDir(async (cwd) => {
			const rules = permissionRulesOf({ permissions: { deny: ["bash(git push:*)"] } });
			const decide = async (command: string) =>
				(await judgeCall(rules, { toolName: "bash", input: { command }, cwd, annotations: undefined }, "yes")).decision;
			const pushes = [
				"git push",
				"git -C . push",
				"git --no-pager push",
				"git -C . --no-pager push --force",
				"git --git-dir=.git push origin main",
				"command git push",
				"/usr/bin/git push",
				"env git push",
				"bash -c 'git -C . push'",
			];
			for (const command of pushes) expect(await decide(command), command).toBe("deny");
			for (const command of ["git log push", "git status", "git -C . pull"]) {
				expect(await decide(command), command).toBe("allow");
			}
		}));

	it("judges spellings this machine cannot run (sudo, doas, busybox, zsh, ssh, …) as blocked in yes mode", () =>
		withTempDir(async (cwd) => {
			const rules = permissionRulesOf({ permissions: { deny: ["bash(rm:*)"] } });
			const allowed: string[] = [];
			for (const spelling of JUDGED_ONLY) {
				const verdict = await judgeCall(
					rules,
					{ toolName: "bash", input: { command: spelled(spelling, 0) }, cwd, annotations: undefined },
					"yes",
				);
				if (verdict.decision !== "deny") allowed.push(spelling);
			}
			expect(allowed).toEqual([]);
		}));
});
