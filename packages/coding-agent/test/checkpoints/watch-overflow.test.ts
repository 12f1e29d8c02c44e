import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentToolResult } from "@gantry/agent";
import { createFauxModel } from "@gantry/ai";
import { defineTool, type ToolDefinition } from "@gantry/extensions";
import { createLocalWorkspace } from "@gantry/tools";
import { Type } from "@sinclair/typebox";
import { afterEach, assert, beforeEach, describe, expect, it } from "vitest";
import { ShadowRepository } from "../../src/checkpoints/shadow-repository.js";
import { createAgentSession } from "../../src/index.js";
import { usePlace } from "./helpers.js";

// The kernel queues at most this many events per inotify descriptor (libuv keeps one per thread); past it,
// it drops them (IN_Q_OVERFLOW, which Node never reports). The watch counts what arrives instead: a stretch
// with half that many events may have lost some, and the checkpoint lists the folder with git.
const QUEUED = Number.parseInt(
	process.platform === "linux" ? readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8") : "",
	10,
);

const place = usePlace("gantry-overflow-");
const opened: ShadowRepository[] = [];

beforeEach(async () => {
	await writeFile(join(place.project, "a.txt"), "a\n");
	await writeFile(join(place.project, "b.txt"), "b\n");
	await writeFile(join(place.project, "c.txt"), "c\n");
	await writeFile(join(place.project, "d.txt"), "d\n");
});

afterEach(() => {
	for (const repository of opened.splice(0)) repository.close();
});

async function open(folder: string, sessionKey: string, watch = true): Promise<ShadowRepository> {
	const repository = await ShadowRepository.open({
		workspace: createLocalWorkspace(folder),
		home: place.home,
		sessionKey,
		watch,
	});
	opened.push(repository);
	return repository;
}

/**
 * Appends to two files of `folder` in turn, synchronously, more times than the kernel's queue holds: the
 * event loop cannot read the queue meanwhile, so it fills and every later event is dropped. (Writes to one
 * file in a row would be merged into one event; alternating two keeps them apart. One `write` each through
 * open descriptors: rewriting whole files costs a truncation each, a hundred times slower here.)
 */
function overflowQueue(folder: string): void {
	const files = [openSync(join(folder, "a.txt"), "a"), openSync(join(folder, "b.txt"), "a")];
	try {
		for (let index = 0; index < QUEUED + 100; index++) writeSync(files[index % 2] ?? -1, "x");
	} finally {
		for (const file of files) closeSync(file);
	}
}

/** Changes made after the overflow: the watch hears of none of them. */
function changesAfterOverflow(folder: string): void {
	writeFileSync(join(folder, "c.txt"), "c changed after the overflow\n");
	rmSync(join(folder, "d.txt"));
	mkdirSync(join(folder, "fresh"));
	writeFileSync(join(folder, "fresh", "new.txt"), "new\n");
}

/**
 * Lets the event loop poll, so Node reads (and counts) what the queue holds before a checkpoint writes its
 * cookie (into a full queue it would be dropped: the cookie's timeout, a fallback of its own, would hide the
 * count's). An immediate runs after the poll phase of the loop's turn; the second one after a whole turn
 * that polled, whichever phase this code runs in.
 */
async function drainEvents(): Promise<void> {
	for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
}

function gitOf(repository: ShadowRepository, ...args: string[]): string {
	return execFileSync("git", ["--git-dir", repository.gitDir, ...args], { encoding: "utf8" });
}

/** The checkpoint's files with their content, as git stored them. */
function contentOf(repository: ShadowRepository, commit: string): Record<string, string> {
	const files = gitOf(repository, "ls-tree", "-r", "--name-only", commit).split("\n").filter(Boolean);
	return Object.fromEntries(files.map((path) => [path, gitOf(repository, "show", `${commit}:${path}`)]));
}

/** What a repository that lists the whole folder with git records of it now. */
async function listedNow(folder: string, sessionKey: string): Promise<Record<string, string>> {
	const listing = await open(folder, sessionKey, false);
	const snapshot = await listing.snapshot(sessionKey);
	return contentOf(listing, snapshot.commit);
}

// A queue raised far above Linux's default (16384) would take seconds of writes to fill: not here.
const ON_LINUX = process.platform === "linux" && Number.isFinite(QUEUED) && QUEUED <= 262_144;

describe.runIf(ON_LINUX)("a watch whose queue may have overflowed", () => {
	it("lists the folder with git, recording every change, then watches again", async () => {
		const { project } = place;
		const repository = await open(project, "overflow");
		await repository.snapshot("first");
		expect(repository.lastWay).toBe("listed");
		await writeFile(join(project, "a.txt"), "a again\n");
		await repository.snapshot("watched");
		expect(repository.lastWay).toBe("watched");

		overflowQueue(project);
		changesAfterOverflow(project);
		await drainEvents();
		const after = await repository.snapshot("after the overflow");
		expect(repository.lastWay).toBe("listed");
		const recorded = contentOf(repository, after.commit);
		expect(recorded).toEqual(await listedNow(project, "listing after the overflow"));
		expect(recorded).toMatchObject({ "c.txt": "c changed after the overflow\n", "fresh/new.txt": "new\n" });
		expect(recorded).not.toHaveProperty("d.txt");

		// A new watch started with that listing: the next checkpoint looks only at what changed.
		await writeFile(join(project, "fresh", "new.txt"), "newer\n");
		const next = await repository.snapshot("watched again");
		expect(repository.lastWay).toBe("watched");
		expect(contentOf(repository, next.commit)).toEqual(await listedNow(project, "listing watched again"));
	});

	it("counts the events of every watch in the thread, which share one queue: another folder's flood overflows it too", async () => {
		const { project, root } = place;
		const quiet = join(root, "quiet");
		await mkdir(quiet);
		await writeFile(join(quiet, "q.txt"), "q\n");
		const busy = await open(project, "busy");
		const calm = await open(quiet, "calm");
		await busy.snapshot("first");
		const before = await calm.snapshot("first");
		expect(calm.lastWay).toBe("listed");

		// The busy folder's events fill the thread's queue; the quiet folder's one change comes after.
		overflowQueue(project);
		writeFileSync(join(quiet, "q.txt"), "q changed after the overflow\n");
		await drainEvents();
		const after = await calm.snapshot("after the other folder's overflow");
		expect(calm.lastWay).toBe("listed");
		expect(after.commit).not.toBe(before.commit);
		expect(contentOf(calm, after.commit)).toEqual({ "q.txt": "q changed after the overflow\n" });
		await busy.snapshot("busy after");
		expect(busy.lastWay).toBe("listed");
	});

	it("in a session: a tool's flood of changes, then listCheckpoints and rewind still see every file", async () => {
		const { project, home } = place;
		const flood = defineTool({
			name: "flood",
			label: "flood",
			description: "Rewrites files many times, synchronously",
			parameters: Type.Object({}),
			async execute(): Promise<AgentToolResult> {
				overflowQueue(project);
				changesAfterOverflow(project);
				// A tool that goes on with I/O lets Node read the queue before the checkpoint after the prompt.
				await drainEvents();
				return { content: [{ type: "text", text: "flooded" }] };
			},
		}) as unknown as ToolDefinition;
		const session = await createAgentSession({
			cwd: project,
			home,
			customTools: [flood],
			tools: ["flood"],
			model: createFauxModel([{ toolCalls: [{ name: "flood", arguments: {} }] }, { text: "done" }]),
		});
		await session.prompt("flood the folder");
		const [checkpoint] = session.listCheckpoints();
		assert.isDefined(checkpoint);
		expect(checkpoint.files).toEqual(["a.txt", "b.txt", "c.txt", "d.txt", "fresh/new.txt"]);
		expect(await session.rewind(checkpoint.id, { code: true })).toEqual({
			restored: ["a.txt", "b.txt", "c.txt", "d.txt"],
			removed: ["fresh/new.txt"],
			conflicts: [],
		});
		const read = (path: string) => readFile(join(project, path), "utf8");
		expect([await read("a.txt"), await read("b.txt"), await read("c.txt"), await read("d.txt")]).toEqual([
			"a\n",
			"b\n",
			"c\n",
			"d\n",
		]);
		await expect(stat(join(project, "fresh"))).rejects.toThrow(/ENOENT/);
		await session.dispose();
	});
});
