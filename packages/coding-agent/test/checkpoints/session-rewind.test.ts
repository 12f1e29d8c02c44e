import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { createLocalWorkspace } from "@gantry/tools";
import { assert, beforeEach, describe, expect, it } from "vitest";
import { createAgentSession, listTranscriptCheckpoints, loadTranscript, rewindTranscript } from "../../src/index.js";
import { toolResults } from "../session/helpers.js";
import { gitIn, usePlace } from "./helpers.js";

const place = usePlace("gantry-rewind-");
let root: string;
let project: string;
let home: string;

beforeEach(() => {
	({ root, project, home } = place);
});

function git(...args: string[]): string {
	return gitIn(project, ...args);
}

const exists = (path: string) =>
	stat(join(project, path)).then(
		() => true,
		() => false,
	);
const read = (path: string) => readFile(join(project, path), "utf8");

describe("session checkpoints and rewind", () => {
	it("rewinds what edit, write and bash changed (rm, mv, chmod, binary), never the user's change, .git or ignored files", async () => {
		await writeFile(join(project, "a.txt"), "one\n");
		await writeFile(join(project, "keep.txt"), "keep\n");
		await writeFile(join(project, "old.txt"), "old\n");
		await writeFile(join(project, "tool.sh"), "echo hi\n");
		await writeFile(join(project, "image.bin"), Buffer.from([0x89, 0x50, 0, 0, 0xff]));
		await writeFile(join(project, ".gitignore"), "ignored/\n*.log\n");
		git("init", "-q");
		git("add", "-A");
		git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start");
		const headBefore = git("rev-parse", "HEAD");
		const indexBefore = await readFile(join(project, ".git", "index"));

		const model = createFauxModel([
			{
				toolCalls: [
					{ name: "edit", arguments: { path: "a.txt", edits: [{ oldText: "one", newText: "two" }] } },
					{ name: "write", arguments: { path: "sub/new.txt", content: "new\n" } },
					{
						name: "bash",
						arguments: {
							command:
								"rm old.txt && mv keep.txt moved.txt && chmod +x tool.sh && printf '\\000\\001\\377' > image.bin && mkdir -p ignored && echo cache > ignored/cache && echo log > run.log",
						},
					},
				],
			},
			{ text: "first done" },
			{ toolCalls: [{ name: "write", arguments: { path: "b.txt", content: "b\n" } }] },
			{ text: "second done" },
		]);
		const session = await createAgentSession({ cwd: project, model, home, toolExecution: "sequential" });
		const diagnostics: string[] = [];
		session.onDiagnostic((message) => diagnostics.push(message));
		await session.prompt("change things");
		expect(toolResults(session.messages).map((result) => result.isError)).toEqual([false, false, false]);
		expect(await exists("old.txt")).toBe(false);
		// The user edits a file the session wrote, between the prompts.
		await writeFile(join(project, "sub", "new.txt"), "the user's words\n");
		await session.prompt("one more");

		const checkpoints = session.listCheckpoints();
		expect(checkpoints.map((checkpoint) => checkpoint.prompt)).toEqual(["change things", "one more"]);
		const [changed, again] = checkpoints;
		assert.isDefined(changed);
		expect(changed.files).toEqual([
			"a.txt",
			"b.txt",
			"image.bin",
			"keep.txt",
			"moved.txt",
			"old.txt",
			"sub/new.txt",
			"tool.sh",
		]);
		expect(again?.files).toEqual(["b.txt"]);
		expect(typeof changed.timestamp).toBe("number");

		const result = await session.rewind(changed.id, { code: true });
		expect(result).toEqual({
			restored: ["a.txt", "image.bin", "keep.txt", "old.txt", "tool.sh"],
			removed: ["b.txt", "moved.txt"],
			conflicts: ["sub/new.txt"],
		});
		expect(await read("a.txt")).toBe("one\n");
		expect(await read("keep.txt")).toBe("keep\n");
		expect(await read("old.txt")).toBe("old\n");
		expect([...(await readFile(join(project, "image.bin")))]).toEqual([0x89, 0x50, 0, 0, 0xff]);
		expect((await stat(join(project, "tool.sh"))).mode & 0o111).toBe(0);
		expect(await exists("moved.txt")).toBe(false);
		expect(await exists("b.txt")).toBe(false);
		expect(await read("sub/new.txt")).toBe("the user's words\n");
		expect(await read("ignored/cache")).toBe("cache\n");
		expect(await read("run.log")).toBe("log\n");
		// The project's repository saw nothing: same HEAD, same index, only the user's file is new to it.
		expect(git("rev-parse", "HEAD")).toBe(headBefore);
		expect(await readFile(join(project, ".git", "index"))).toEqual(indexBefore);
		expect(git("status", "--porcelain")).toBe("?? sub/\n");
		// Code only: the conversation stays.
		expect(session.messages).toHaveLength(10);
		expect(diagnostics).toEqual([]);
		await session.dispose();
	});

	it("rewinds the conversation in the session and the transcript, and a resumed session continues from there", async () => {
		const sessionFile = join(root, "session.jsonl");
		const first = await createAgentSession({
			cwd: project,
			home,
			sessionFile,
			model: createFauxModel([
				{ text: "hello back" },
				{ toolCalls: [{ name: "bash", arguments: { command: "echo made > made.txt" } }] },
				{ text: "made it" },
			]),
		});
		await first.prompt("hello");
		await first.prompt("make a file");
		expect(await exists("made.txt")).toBe(true);
		const [, second] = first.listCheckpoints();
		assert.isDefined(second);
		expect(second.files).toEqual(["made.txt"]);
		const result = await first.rewind(second.id, { code: true, conversation: true });
		expect(result).toEqual({ restored: [], removed: ["made.txt"], conflicts: [] });
		expect(await exists("made.txt")).toBe(false);
		expect(first.messages.map((message) => (message as { role: string }).role)).toEqual(["user", "assistant"]);
		expect(first.listCheckpoints().map((checkpoint) => checkpoint.prompt)).toEqual(["hello"]);
		await first.dispose();

		const loaded = loadTranscript(sessionFile);
		expect(loaded.messages).toHaveLength(2);
		expect(loaded.checkpoints.rewinds).toMatchObject([{ droppedPrompts: ["make a file"], removed: ["made.txt"] }]);
		const model = createFauxModel([{ text: "again" }]);
		const resumed = await createAgentSession({ cwd: project, home, sessionFile, model });
		expect(resumed.messages).toHaveLength(2);
		expect(resumed.listCheckpoints().map((checkpoint) => checkpoint.prompt)).toEqual(["hello"]);
		await resumed.prompt("go on");
		expect(model.calls[0]?.messages).toHaveLength(3);
		expect(resumed.listCheckpoints().map((checkpoint) => checkpoint.prompt)).toEqual(["hello", "go on"]);
		await resumed.dispose();
	});

	it("rewinds the conversation only, keeping the files, and a later code rewind still undoes them", async () => {
		const session = await createAgentSession({
			cwd: project,
			home,
			model: createFauxModel([
				{ toolCalls: [{ name: "write", arguments: { path: "one.txt", content: "1" } }] },
				{ text: "ok" },
				{ toolCalls: [{ name: "write", arguments: { path: "two.txt", content: "2" } }] },
				{ text: "ok" },
			]),
		});
		await session.prompt("first");
		await session.prompt("second");
		const [first, second] = session.listCheckpoints();
		assert.isDefined(first);
		assert.isDefined(second);
		expect(await session.rewind(second.id, { conversation: true })).toEqual({
			restored: [],
			removed: [],
			conflicts: [],
		});
		expect(await exists("two.txt")).toBe(true);
		expect(session.messages).toHaveLength(4);
		// The dropped prompt's work is still the session's, not the user's: undone without a conflict.
		expect(session.listCheckpoints()[0]?.files).toEqual(["one.txt", "two.txt"]);
		expect(await session.rewind(first.id, { code: true })).toEqual({
			restored: [],
			removed: ["one.txt", "two.txt"],
			conflicts: [],
		});
		await expect(session.rewind("nope", { code: true })).rejects.toThrow(/no checkpoint "nope"/);
		await expect(session.rewind(first.id, {})).rejects.toThrow(/say what to rewind/);
		await session.dispose();
	});

	it("leaves out files over the size limit with one notice", async () => {
		const session = await createAgentSession({
			cwd: project,
			home,
			model: createFauxModel([
				{
					toolCalls: [{ name: "bash", arguments: { command: "head -c 11534336 /dev/zero > big.dat; echo s > s.txt" } }],
				},
				{ text: "ok" },
			]),
		});
		const diagnostics: string[] = [];
		session.onDiagnostic((message) => diagnostics.push(message));
		await session.prompt("make a big file");
		expect(diagnostics).toEqual([
			"Checkpoints leave out big.dat (11.0 MiB, over the 10 MiB limit): rewind cannot restore it.",
		]);
		expect(session.listCheckpoints()[0]?.files).toEqual(["s.txt"]);
		await session.dispose();
	});

	it("turns checkpoints off with one clear notice when git is missing, and still rewinds the conversation", async () => {
		const workspace = createLocalWorkspace(project, { environment: { PATH: join(root, "no-git-here") }, home });
		const session = await createAgentSession({
			workspace,
			home,
			model: createFauxModel([{ text: "one" }, { text: "two" }]),
		});
		const diagnostics: string[] = [];
		session.onDiagnostic((message) => diagnostics.push(message));
		await session.prompt("first");
		await session.prompt("second");
		expect(diagnostics).toEqual([
			"Checkpoints are off: git was not found on local. Install git (Debian: apt-get install git) to rewind file changes; the conversation can still be rewound.",
		]);
		const [first] = session.listCheckpoints();
		assert.isDefined(first);
		expect(first.files).toEqual([]);
		await expect(session.rewind(first.id, { code: true })).rejects.toThrow(/code cannot be rewound/);
		await session.rewind(first.id, { conversation: true });
		expect(session.messages).toHaveLength(0);
		await session.dispose();
	});

	it("takes no file checkpoints with checkpoints: false", async () => {
		const session = await createAgentSession({
			cwd: project,
			home,
			checkpoints: false,
			model: createFauxModel([
				{ toolCalls: [{ name: "write", arguments: { path: "x.txt", content: "x" } }] },
				{ text: "ok" },
			]),
		});
		await session.prompt("write");
		expect(session.listCheckpoints()[0]?.files).toEqual([]);
		await expect(stat(join(home, ".gantry"))).rejects.toThrow();
		await session.dispose();
	});

	it("is off with a notice in the home folder itself", async () => {
		const session = await createAgentSession({ cwd: home, home, model: createFauxModel([{ text: "ok" }]) });
		const diagnostics: string[] = [];
		session.onDiagnostic((message) => diagnostics.push(message));
		await session.prompt("hi");
		expect(diagnostics[0]).toMatch(/^Checkpoints are off: the working folder .* is the home or root folder/);
		await session.dispose();
	});
});

describe("rewindTranscript", () => {
	it("lists and rewinds a saved session that is not open, and the next resume goes on from there", async () => {
		const sessionFile = join(root, "saved.jsonl");
		const session = await createAgentSession({
			cwd: project,
			home,
			sessionFile,
			model: createFauxModel([
				{ text: "hi" },
				{ toolCalls: [{ name: "write", arguments: { path: "w.txt", content: "w" } }] },
				{ text: "wrote" },
			]),
		});
		await session.prompt("hello");
		await session.prompt("write w");
		await session.dispose();
		const listed = listTranscriptCheckpoints(sessionFile);
		expect(listed.map((entry) => [entry.prompt, entry.files])).toEqual([
			["hello", ["w.txt"]],
			["write w", ["w.txt"]],
		]);
		await expect(rewindTranscript({ sessionFile, home, checkpoint: 3, code: true })).rejects.toThrow(
			/has 2 prompt\(s\) to rewind to; 3 is not one of them/,
		);
		expect(await rewindTranscript({ sessionFile, home, checkpoint: 2, code: true, conversation: true })).toEqual({
			restored: [],
			removed: ["w.txt"],
			conflicts: [],
		});
		expect(await exists("w.txt")).toBe(false);
		expect(listTranscriptCheckpoints(sessionFile).map((entry) => entry.prompt)).toEqual(["hello"]);
		const resumed = await createAgentSession({ cwd: project, home, sessionFile, model: createFauxModel([]) });
		expect(resumed.messages).toHaveLength(2);
		await resumed.dispose();
	});
});

describe("a host whose shell cannot find git", () => {
	it("is told apart from a failing git: exit 127 'not found' turns checkpoints off with the git notice", async () => {
		const local = createLocalWorkspace(project, { home });
		// What an SSH workspace reports: the remote shell ran and said the program is not there.
		const workspace = {
			...local,
			label: "ada@build:22",
			processes: {
				...local.processes,
				spawn: async (file: string, args: readonly string[], options: Parameters<typeof local.processes.spawn>[2]) => {
					if (file !== "git") return local.processes.spawn(file, args, options);
					await options.onStderr?.(Buffer.from("sh: 1: git: not found\n"));
					return { exitCode: 127 };
				},
			},
		};
		const session = await createAgentSession({ workspace, home, model: createFauxModel([{ text: "ok" }]) });
		const diagnostics: string[] = [];
		session.onDiagnostic((message) => diagnostics.push(message));
		await session.prompt("hi");
		expect(diagnostics).toEqual([expect.stringContaining("Checkpoints are off: git was not found on ada@build:22.")]);
		await session.dispose();
	});
});
