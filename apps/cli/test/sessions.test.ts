import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ScriptedLlmServer, startScriptedLlmServer } from "@gantry/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chooseSessionFile, cwdSlug, latestSessionFile, sessionFolder, sessionKey } from "../src/sessions.js";
import { requestBody } from "./helpers/recorded-requests.js";
import { makeWorkspace, runCli } from "./helpers/run-cli.js";

let workspace: ReturnType<typeof makeWorkspace>;

beforeEach(() => {
	workspace = makeWorkspace();
});
afterEach(() => {
	workspace.remove();
});

describe("session files", () => {
	it("names a folder's sessions after its path and a hash of it", () => {
		expect(cwdSlug("/home/ada/shop")).toBe("home-ada-shop");
		expect(cwdSlug("/")).toBe("root");
		expect(sessionKey("/home/ada/shop")).toMatch(/^home-ada-shop-[0-9a-f]{8}$/);
		expect(sessionFolder("/home/ada/shop", "/home/ada")).toBe(
			`/home/ada/.gantry/sessions/${sessionKey("/home/ada/shop")}`,
		);
		expect(sessionKey(`/${"deep/".repeat(40)}x`).length).toBeLessThanOrEqual(69);
	});

	it("keeps /tmp/ux/work and /tmp/ux-work apart", () => {
		const a = join(workspace.root, "ux", "work");
		const b = join(workspace.root, "ux-work");
		for (const folder of [a, b]) mkdirSync(folder, { recursive: true });
		expect(cwdSlug(a)).toBe(cwdSlug(b));
		expect(sessionFolder(a, workspace.home)).not.toBe(sessionFolder(b, workspace.home));
		const first = chooseSessionFile({ continue: false }, a, workspace.home);
		mkdirSync(join(first.path, ".."), { recursive: true });
		writeFileSync(first.path, `${JSON.stringify({ type: "session", version: 1, id: "a", cwd: a })}\n`);
		expect(latestSessionFile(a, workspace.home)).toBe(first.path);
		expect(latestSessionFile(b, workspace.home)).toBeUndefined();
		expect(chooseSessionFile({ continue: true }, b, workspace.home).origin).toBe("new");
	});

	it("still continues a session saved under the old slug-only folder when its header names this folder", () => {
		const a = join(workspace.root, "ux", "work");
		const b = join(workspace.root, "ux-work");
		const legacy = join(workspace.home, ".gantry", "sessions", cwdSlug(a));
		mkdirSync(legacy, { recursive: true });
		const old = join(legacy, "2020-01-01T00-00-00-000Z_cccccc.jsonl");
		writeFileSync(old, `${JSON.stringify({ type: "session", version: 1, id: "old", cwd: a })}\n`);
		expect(latestSessionFile(a, workspace.home)).toBe(old);
		expect(latestSessionFile(b, workspace.home)).toBeUndefined();
	});

	it("continues the most recently written session of the folder", () => {
		const folder = sessionFolder(workspace.project, workspace.home);
		mkdirSync(folder, { recursive: true });
		const older = join(folder, "2030-01-01T00-00-00-000Z_aaaaaa.jsonl");
		const newer = join(folder, "2020-01-01T00-00-00-000Z_bbbbbb.jsonl");
		writeFileSync(older, "");
		writeFileSync(newer, "");
		utimesSync(older, new Date(1_000_000), new Date(1_000_000));
		expect(latestSessionFile(workspace.project, workspace.home)).toBe(newer);
		expect(chooseSessionFile({ continue: true }, workspace.project, workspace.home)).toEqual({
			path: newer,
			origin: "continued",
		});
	});

	it("starts a new file when there is nothing to continue, and takes --session as given", () => {
		const fresh = chooseSessionFile({ continue: true }, workspace.project, workspace.home);
		expect(fresh.origin).toBe("new");
		expect(fresh.path.startsWith(sessionFolder(workspace.project, workspace.home))).toBe(true);
		expect(chooseSessionFile({ session: "/tmp/x.jsonl", continue: false }, workspace.project).path).toBe(
			"/tmp/x.jsonl",
		);
	});
});

describe("resuming sessions", () => {
	let server: ScriptedLlmServer;
	beforeEach(async () => {
		server = await startScriptedLlmServer();
	});
	afterEach(async () => {
		await server.close();
	});

	function gantry(args: string[]) {
		return runCli(["--base-url", server.openaiBaseUrl, "--model", "scripted", ...args], {
			cwd: workspace.project,
			home: workspace.home,
		});
	}

	function userTexts(index: number): unknown[] {
		const messages = requestBody(server, index).messages as { role: string; content: unknown }[];
		return messages.filter((message) => message.role !== "system").map((message) => message.content);
	}

	it("saves each run under ~/.gantry/sessions and --continue picks the conversation up", async () => {
		server.enqueue({ text: "Noted: blue." }, { text: "You said blue." });
		expect((await gantry(["My favourite colour is blue."])).code).toBe(0);
		const folder = sessionFolder(workspace.project, workspace.home);
		expect(readdirSync(folder)).toHaveLength(1);

		const second = await gantry(["--continue", "What did I say?"]);
		expect(second.stdout).toBe("You said blue.\n");
		expect(userTexts(1)).toEqual(["My favourite colour is blue.", "Noted: blue.", "What did I say?"]);
		expect(readdirSync(folder)).toHaveLength(1);
	});

	it("writes to and resumes the file given with --session", async () => {
		server.enqueue({ text: "First answer." }, { text: "Second answer." });
		const file = join(workspace.root, "my-session.jsonl");
		expect((await gantry(["--session", file, "first"])).code).toBe(0);
		expect((await gantry(["--session", file, "second"])).code).toBe(0);
		expect(userTexts(1)).toEqual(["first", "First answer.", "second"]);
		const lines = readFileSync(file, "utf8").trim().split("\n");
		expect(JSON.parse(lines[0] ?? "")).toMatchObject({ type: "session", cwd: workspace.project });
	});
});
