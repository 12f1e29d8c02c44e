import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionUI } from "@gantry/extensions";
import { createLocalWorkspace } from "@gantry/tools";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keepAlwaysAnswers } from "../src/always-answers.js";
import { readSettingsRules } from "../src/permission-settings.js";

let folder: string;
const notes: string[] = [];
const ui: ExtensionUI = {
	select: async () => undefined,
	confirm: async () => false,
	notify: (message) => {
		notes.push(message);
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
	it("on this machine saves the rules to the project's settings and says so", async () => {
		const shown = ["read"];
		const always = keepAlwaysAnswers({ cwd: folder }, ui, shown);
		expect(always.alwaysAllowScope).toBe("in this project");
		await always.onAlwaysAllow?.(["bash(npm test:*)", "read"]);
		expect(shown).toEqual(["read", "bash(npm test:*)"]);
		const path = join(folder, ".gantry", "settings.json");
		expect(readSettingsRules(path).allow).toEqual(["bash(npm test:*)", "read"]);
		expect(notes).toEqual([`Saved bash(npm test:*), read to ${path} (permissions.allow).`]);
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
});
