import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionUI } from "@gantry/extensions";
import { createLocalWorkspace } from "@gantry/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keepAlwaysAnswers } from "../src/always-answers.js";

/** The allow rules a settings file holds. */
const allowRulesIn = (path: string): string[] => JSON.parse(readFileSync(path, "utf8")).permissions.allow;
let folder: string;
const notes: string[] = [];
const ui: ExtensionUI = {
	select: async () => undefined,
	confirm: async () => false,
	notify: (message, level) => {
		notes.push(level === "warning" ? `warning: ${message}` : message);
	},
};

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), "gantry-always-"));
	notes.length = 0;
});
afterEach(() => {
	rmSync(folder, { recursive: true, force: true });
});

describe("keepAlwaysAnswers", () => {
	it("on this machine saves the rules to the project's local settings, makes git ignore them, and says so", async () => {
		const shared = join(folder, ".gantry", "settings.json");
		mkdirSync(join(folder, ".gantry"));
		writeFileSync(shared, '{ "permissions": { "deny": ["bash(rm:*)"] } }\n');
		const shown = ["read"];
		const always = keepAlwaysAnswers({ cwd: folder }, ui, shown);
		expect(always.alwaysAllowScope).toBe("in this project");
		await always.onAlwaysAllow?.(["bash(npm test:*)", "read"]);
		expect(shown).toEqual(["read", "bash(npm test:*)"]);
		const path = join(folder, ".gantry", "settings.local.json");
		const gitignore = join(folder, ".gantry", ".gitignore");
		expect(allowRulesIn(path)).toEqual(["bash(npm test:*)", "read"]);
		expect(readFileSync(shared, "utf8")).toBe('{ "permissions": { "deny": ["bash(rm:*)"] } }\n');
		expect(readFileSync(gitignore, "utf8")).toBe("settings.local.json\n");
		expect(existsSync(join(folder, ".gitignore"))).toBe(false);
		expect(notes).toEqual([
			`Saved bash(npm test:*), read to ${path} (permissions.allow).`,
			`Created ${gitignore} (settings.local.json), so git leaves your rules out.`,
		]);
		// Once the file exists, later answers only add rules; a .gitignore changed by the person stays theirs.
		writeFileSync(gitignore, "other\n");
		await always.onAlwaysAllow?.(["write"]);
		expect(allowRulesIn(path)).toEqual(["bash(npm test:*)", "read", "write"]);
		expect(readFileSync(gitignore, "utf8")).toBe("other\n");
	});

	it("adds the line to a .gantry/.gitignore that does not list the file, and leaves one that does", async () => {
		const gitignore = join(folder, ".gantry", ".gitignore");
		mkdirSync(join(folder, ".gantry"));
		writeFileSync(gitignore, "cache/");
		await keepAlwaysAnswers({ cwd: folder }, ui, []).onAlwaysAllow?.(["write"]);
		expect(readFileSync(gitignore, "utf8")).toBe("cache/\nsettings.local.json\n");
		expect(notes[1]).toBe(`Added settings.local.json to ${gitignore}, so git leaves your rules out.`);

		rmSync(join(folder, ".gantry", "settings.local.json"));
		writeFileSync(gitignore, "# mine\n /settings.local.json \n");
		notes.length = 0;
		await keepAlwaysAnswers({ cwd: folder }, ui, []).onAlwaysAllow?.(["write"]);
		expect(readFileSync(gitignore, "utf8")).toBe("# mine\n /settings.local.json \n");
		expect(notes).toHaveLength(1);
	});

	it("keeps the saved rule and warns when .gantry/.gitignore cannot be changed", async () => {
		const gitignore = join(folder, ".gantry", ".gitignore");
		mkdirSync(gitignore, { recursive: true });
		await keepAlwaysAnswers({ cwd: folder }, ui, []).onAlwaysAllow?.(["write"]);
		const path = join(folder, ".gantry", "settings.local.json");
		expect(allowRulesIn(path)).toEqual(["write"]);
		expect(notes[0]).toBe(`Saved write to ${path} (permissions.allow).`);
		expect(notes[1]).toMatch(
			/^warning: .*\.gitignore could not be changed \(.*EISDIR.*\): add the line settings\.local\.json/,
		);
		expect(notes[1]).toContain("They are saved.");
	});

	it("over SSH, where the working folder is on the other host, keeps them for the session only", async () => {
		const local = createLocalWorkspace(folder);
		const remote = { ...local, isLocal: false, label: "gantry@127.0.0.1:22" };
		const shown: string[] = [];
		const always = keepAlwaysAnswers({ cwd: folder, sessionOptions: { workspace: remote } }, ui, shown);
		expect(always.alwaysAllowScope).toBeUndefined();
		await always.onAlwaysAllow?.(["bash(npm test:*)"]);
		expect(shown).toEqual(["bash(npm test:*)"]);
		expect(existsSync(join(folder, ".gantry"))).toBe(false);
		expect(notes).toEqual([]);
	});

	it("never writes through a settings.local.json (or .gantry) that links out of the project", async () => {
		const outside = mkdtempSync(join(tmpdir(), "gantry-always-outside-"));
		try {
			const userSettings = join(outside, "settings.json");
			writeFileSync(userSettings, '{ "permissions": { "allow": [] } }\n');
			mkdirSync(join(folder, ".gantry"));
			symlinkSync(userSettings, join(folder, ".gantry", "settings.local.json"));
			await expect(keepAlwaysAnswers({ cwd: folder }, ui, []).onAlwaysAllow?.(["bash"])).rejects.toThrow(
				"leads out of the project",
			);
			rmSync(join(folder, ".gantry"), { recursive: true });
			symlinkSync(outside, join(folder, ".gantry"));
			await expect(keepAlwaysAnswers({ cwd: folder }, ui, []).onAlwaysAllow?.(["bash"])).rejects.toThrow(
				"leads out of the project",
			);
			expect(readFileSync(userSettings, "utf8")).toBe('{ "permissions": { "allow": [] } }\n');
			expect(existsSync(join(outside, "settings.local.json"))).toBe(false);
		} finally {
			rmSync(outside, { recursive: true, force: true });
		}
	});
});
