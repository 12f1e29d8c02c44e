import {
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { appendAllowRules } from "../src/settings-writer.js";

/** The allow rules a settings file holds. */
const allowRulesIn = (path: string): string[] => JSON.parse(readFileSync(path, "utf8")).permissions.allow;
let folder: string;
let path: string;

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), "gantry-settings-"));
	path = join(folder, ".gantry", "settings.json");
});
afterEach(() => {
	rmSync(folder, { recursive: true, force: true });
});

function writeSettings(text: string) {
	mkdirSync(join(folder, ".gantry"), { recursive: true });
	writeFileSync(path, text);
}

describe("appendAllowRules", () => {
	it("creates the file and its folder when there is none", async () => {
		expect(await appendAllowRules(path, ["bash(npm test:*)"])).toEqual(["bash(npm test:*)"]);
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ permissions: { allow: ["bash(npm test:*)"] } });
		expect(readdirSync(join(folder, ".gantry"))).toEqual(["settings.json"]);
	});

	it("keeps every other key and the file's indentation, and adds only rules not there yet", async () => {
		writeSettings(
			`${JSON.stringify({ model: "qwen3", permissions: { deny: ["edit(.env)"], allow: ["read"] }, extra: [1] }, null, 2)}\n`,
		);
		const added = await appendAllowRules(path, ["read", "bash(npm test:*)", "bash(npm test:*)"]);
		expect(added).toEqual(["bash(npm test:*)"]);
		const text = readFileSync(path, "utf8");
		expect(JSON.parse(text)).toEqual({
			model: "qwen3",
			permissions: { deny: ["edit(.env)"], allow: ["read", "bash(npm test:*)"] },
			extra: [1],
		});
		expect(text).toContain('\n  "model": "qwen3"');
		expect(await appendAllowRules(path, ["read"])).toEqual([]);
	});

	const malformed: [string, string][] = [
		['{ "permissions": { "allow": [', "is not valid JSON"],
		["[]", "does not hold a JSON object"],
		['{ "permissions": ["read"] }', "its permissions is not an object"],
		['{ "permissions": { "allow": "read" } }', "its permissions.allow is not a list of rule strings"],
	];
	for (const [text, why] of malformed) {
		it(`refuses to change ${JSON.stringify(text)} and says why`, async () => {
			writeSettings(text);
			const error = await appendAllowRules(path, ["bash(npm test:*)"]).catch((caught: Error) => caught);
			expect(error).toBeInstanceOf(Error);
			const { message } = error as Error;
			expect(message.startsWith(`${path} was not changed: `)).toBe(true);
			expect(message).toContain(why);
			expect(message).toContain('add "bash(npm test:*)" to its permissions.allow yourself');
			expect(readFileSync(path, "utf8")).toBe(text);
			expect(readdirSync(join(folder, ".gantry"))).toEqual(["settings.json"]);
		});
	}

	it("writes through a linked settings file, keeping the link and the file's mode", async () => {
		const shared = join(folder, "shared-settings.json");
		writeFileSync(shared, '{\n\t"permissions": {}\n}\n', { mode: 0o600 });
		mkdirSync(join(folder, ".gantry"));
		symlinkSync(shared, path);
		await appendAllowRules(path, ["write"]);
		expect(readFileSync(shared, "utf8")).toBe('{\n\t"permissions": {\n\t\t"allow": [\n\t\t\t"write"\n\t\t]\n\t}\n}\n');
		expect(statSync(path).isFile()).toBe(true);
		expect(statSync(shared).mode & 0o777).toBe(0o600);
		expect(allowRulesIn(path)).toEqual(["write"]);
	});
});
