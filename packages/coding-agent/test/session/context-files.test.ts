import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createLocalWorkspace } from "@gantry/tools";
import { createMappedWorkspace, VIRTUAL_PROJECT } from "@gantry/tools/testing";
import { describe, expect, it } from "vitest";
import { buildSystemPrompt, createAgentSession, findContextFiles } from "../../src/index.js";
import { withTempDir } from "./helpers.js";

/** A folder tree: `outside/` holds the repository `repo/` (with `.git`), worked on in `repo/app/web`. */
async function makeTree(dir: string) {
	const home = join(dir, "home");
	const outside = join(dir, "outside");
	const repo = join(outside, "repo");
	const web = join(repo, "app", "web");
	await mkdir(join(home, ".gantry"), { recursive: true });
	await mkdir(join(repo, ".git"), { recursive: true });
	await mkdir(web, { recursive: true });
	await writeFile(join(home, ".gantry", "AGENTS.md"), "Answer in British English.\n");
	await writeFile(join(outside, "AGENTS.md"), "OUTSIDE THE REPOSITORY: never read\n");
	await writeFile(join(repo, "AGENTS.md"), "Run pnpm test before you finish.\n");
	await writeFile(join(repo, "app", "CLAUDE.md"), "The app folder uses tabs.\n");
	await writeFile(join(web, "AGENTS.md"), "Web: use the fetch wrapper.\n");
	await writeFile(join(web, "CLAUDE.md"), "Web: no jQuery.\n");
	return { home, outside, repo, web };
}

describe("project instructions (AGENTS.md, CLAUDE.md)", () => {
	it("joins the user's file, then the repository's from its root down to the working folder, each under its path", async () => {
		await withTempDir(async (dir) => {
			const { home, repo, web } = await makeTree(dir);
			const model = createFauxModel([{ text: "ok" }]);
			const session = await createAgentSession({ cwd: web, model, home });
			try {
				expect(session.contextFiles.map((file) => file.path)).toEqual([
					join(home, ".gantry", "AGENTS.md"),
					join(repo, "AGENTS.md"),
					join(repo, "app", "CLAUDE.md"),
					join(web, "AGENTS.md"),
					join(web, "CLAUDE.md"),
				]);
				await session.prompt("hello");
				const sent = model.calls[0]?.systemPrompt ?? "";
				expect(sent).not.toContain("OUTSIDE THE REPOSITORY");
				const order = [
					`## ${join(home, ".gantry", "AGENTS.md")}\n\nAnswer in British English.`,
					`## ${join(repo, "AGENTS.md")}\n\nRun pnpm test before you finish.`,
					`## ${join(repo, "app", "CLAUDE.md")}\n\nThe app folder uses tabs.`,
					`## ${join(web, "AGENTS.md")}\n\nWeb: use the fetch wrapper.`,
					`## ${join(web, "CLAUDE.md")}\n\nWeb: no jQuery.`,
				].map((part) => sent.indexOf(part));
				expect(order.every((position) => position > 0)).toBe(true);
				expect([...order].sort((a, b) => a - b)).toEqual(order);
				// After the guidelines, before the working folder line (the order is sorted, as just checked).
				expect(sent.indexOf("Guidelines:")).toBeLessThan(Math.min(...order));
				expect(sent.indexOf("Current working directory:")).toBeGreaterThan(Math.max(...order));
			} finally {
				await session.dispose();
			}
		});
	});

	it("reads only the working folder's files when no parent holds .git", async () => {
		await withTempDir(async (dir) => {
			const home = join(dir, "home");
			const work = join(dir, "plain", "work");
			await mkdir(work, { recursive: true });
			await mkdir(home);
			await writeFile(join(dir, "plain", "AGENTS.md"), "parent without git\n");
			await writeFile(join(work, "AGENTS.md"), "here\n");
			const files = await findContextFiles({ workspace: createLocalWorkspace(work), home });
			expect(files).toEqual([{ path: join(work, "AGENTS.md"), content: "here\n" }]);
		});
	});

	it("reads a CLAUDE.md that is a link to (or a copy of) AGENTS.md once, and skips empty files, folders and FIFOs", async () => {
		await withTempDir(async (dir) => {
			const home = join(dir, "home");
			const work = join(dir, "work");
			await mkdir(join(work, ".git"), { recursive: true });
			await mkdir(join(work, "sub", "AGENTS.md"), { recursive: true });
			await mkdir(home);
			await writeFile(join(work, "AGENTS.md"), "same text\n");
			await symlink(join(work, "AGENTS.md"), join(work, "CLAUDE.md"));
			await writeFile(join(work, "sub", "CLAUDE.md"), "  \n\n");
			execFileSync("mkfifo", [join(home, "fifo")]);
			await mkdir(join(home, ".gantry"));
			await symlink(join(home, "fifo"), join(home, ".gantry", "AGENTS.md"));
			const files = await findContextFiles({ workspace: createLocalWorkspace(join(work, "sub")), home });
			expect(files).toEqual([{ path: join(work, "AGENTS.md"), content: "same text\n" }]);
		});
	});

	it("cuts them at the size limit with a notice, and lists the files past it", async () => {
		await withTempDir(async (dir) => {
			const home = join(dir, "home");
			const work = join(dir, "work");
			await mkdir(join(work, ".git"), { recursive: true });
			await mkdir(join(work, "deep"));
			await mkdir(home);
			const line = "é".repeat(49); // 98 bytes and a new line: 99 bytes a line
			await writeFile(join(work, "AGENTS.md"), `${line}\n`.repeat(20));
			await writeFile(join(work, "deep", "AGENTS.md"), "the nearest folder's rules\n");
			const files = await findContextFiles({
				workspace: createLocalWorkspace(join(work, "deep")),
				home,
				maxBytes: 1000,
			});
			expect(files[0]?.content).toBe(`${line}\n`.repeat(10));
			expect(files[0]?.omittedBytes).toBe(990);
			expect(files[1]).toEqual({ path: join(work, "deep", "AGENTS.md"), content: "", omittedBytes: 27 });
			const prompt = buildSystemPrompt({ cwd: work, declared: [], contextFiles: files });
			expect(prompt).toContain("[990 more bytes of this file are not shown");
			expect(prompt).toContain(`## ${join(work, "deep", "AGENTS.md")}\n\n[27 more bytes of this file are not shown`);
		});
	});

	it("reads the project's files through the session's workspace and the user's on this machine", async () => {
		const mapped = await createMappedWorkspace();
		try {
			await mkdir(join(mapped.project, ".git"));
			await writeFile(join(mapped.project, "AGENTS.md"), "remote project rules\n");
			await writeFile(join(mapped.home, "AGENTS.md"), "not the user's file\n");
			await withTempDir(async (home) => {
				await mkdir(join(home, ".gantry"));
				await writeFile(join(home, ".gantry", "AGENTS.md"), "local user rules\n");
				const model = createFauxModel([]);
				const session = await createAgentSession({ workspace: mapped.workspace, model, home, keepWorkspaceOpen: true });
				try {
					expect(session.contextFiles).toEqual([
						{ path: join(home, ".gantry", "AGENTS.md"), content: "local user rules\n" },
						{ path: `${VIRTUAL_PROJECT}/AGENTS.md`, content: "remote project rules\n" },
					]);
					expect(mapped.operations).toContain(`open ${VIRTUAL_PROJECT}/AGENTS.md`);
				} finally {
					await session.dispose();
				}
			});
		} finally {
			await mapped.cleanup();
		}
	});

	it("uses none with contextFiles: false, and exactly the given ones with an array", async () => {
		await withTempDir(async (dir) => {
			const { home, web } = await makeTree(dir);
			const model = createFauxModel([]);
			const off = await createAgentSession({ cwd: web, model, home, contextFiles: false });
			const given = await createAgentSession({
				cwd: web,
				model,
				home,
				contextFiles: [{ path: "/team/RULES.md", content: "Team rule." }],
			});
			try {
				expect(off.contextFiles).toEqual([]);
				expect(off.systemPrompt).not.toContain("Project instructions");
				expect(given.systemPrompt).toContain("## /team/RULES.md\n\nTeam rule.");
				expect(given.systemPrompt).not.toContain("British English");
			} finally {
				await off.dispose();
				await given.dispose();
			}
			await expect(createAgentSession({ cwd: web, model, contextFiles: [{ path: 1 }] as never })).rejects.toThrow(
				"`contextFiles` must be true, false or an array",
			);
		});
	});
});
