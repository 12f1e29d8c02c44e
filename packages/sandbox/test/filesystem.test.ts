import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, readdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { SandboxedWorkspace } from "../src/index.js";
import { bash, makePlace, type Place, removePlace, sandboxed } from "./helpers.js";

let place: Place;
let workspace: SandboxedWorkspace | undefined;

beforeEach(async () => {
	place = await makePlace();
});

afterEach(async () => {
	await workspace?.close();
	workspace = undefined;
	await removePlace(place);
});

describe("a sandboxed command's filesystem", () => {
	it("writes in the working folder and its temp folder, and nowhere else; the refusal names the path and the setting", async () => {
		workspace = await sandboxed(place);
		expect(workspace.sandbox).toEqual({ active: true });
		const inside = await bash(workspace, 'echo made > inside.txt && echo temp > "$TMPDIR/t.txt" && echo ok');
		expect(inside.text).toBe("ok");
		expect(readFileSync(join(place.project, "inside.txt"), "utf8")).toBe("made\n");
		expect(readFileSync(join(workspace.tempDir, "t.txt"), "utf8")).toBe("temp\n");

		const outside = await bash(workspace, `echo evil > ${join(place.outside, "x.txt")}`);
		expect(outside.exitCode).not.toBe(0);
		expect(existsSync(join(place.outside, "x.txt"))).toBe(false);
		expect(outside.text).toContain(`[sandbox] The sandbox stopped writing ${join(place.outside, "x.txt")}`);
		expect(outside.text).toContain("sandbox.filesystem.allowWrite");
	});

	it("writes in a folder sandbox.filesystem.allowWrite lists (~/ is the home folder)", async () => {
		await mkdir(join(place.home, "cache"));
		workspace = await sandboxed(place, { filesystem: { allowWrite: ["~/cache", `/${place.outside}`] } });
		const result = await bash(workspace, `echo a > ${place.home}/cache/a && echo b > ${place.outside}/b && echo ok`);
		expect(result.text).toBe("ok");
		expect(readFileSync(join(place.home, "cache", "a"), "utf8")).toBe("a\n");
		expect(readFileSync(join(place.outside, "b"), "utf8")).toBe("b\n");
	});

	it("never writes .git/hooks, .gantry/settings*.json, .mcp.json or shell start-up files, even inside the working folder", async () => {
		await mkdir(join(place.project, ".git", "hooks"), { recursive: true });
		await mkdir(join(place.project, ".gantry"));
		writeFileSync(join(place.project, ".gantry", "settings.json"), "{}");
		writeFileSync(join(place.project, ".gantry", "settings.team.json"), "{}");
		workspace = await sandboxed(place);
		const attempts = [
			"echo x > .git/hooks/pre-commit",
			"echo x > .git/config",
			'echo \'{"permissions":{"allow":["bash"]}}\' > .gantry/settings.json',
			"echo x > .gantry/settings.local.json",
			"echo x > .gantry/settings.team.json",
			"echo x > .mcp.json",
			"echo x > .bashrc",
			"echo x > .profile",
			"echo x > .zshrc",
		];
		for (const attempt of attempts) {
			const result = await bash(workspace, attempt);
			expect(result.exitCode, attempt).not.toBe(0);
		}
		expect(readFileSync(join(place.project, ".gantry", "settings.json"), "utf8")).toBe("{}");
		expect(await readdir(join(place.project, ".git", "hooks"))).toEqual([]);
		// Nothing a command could not write is left behind as a placeholder once the commands ended.
		for (const name of [".mcp.json", ".bashrc", ".profile", ".zshrc", ".vscode", ".gantry/settings.local.json"]) {
			expect(existsSync(join(place.project, name)), name).toBe(false);
		}
	});

	it("cannot get around a protected file by renaming its folder or through a link", async () => {
		await mkdir(join(place.project, ".gantry"));
		writeFileSync(join(place.project, ".gantry", "settings.json"), "{}");
		workspace = await sandboxed(place);
		const rename = await bash(
			workspace,
			'mv .gantry .gantry-old && mkdir .gantry && echo \'{"permissions":{"allow":["bash"]}}\' > .gantry/settings.json',
		);
		expect(rename.exitCode).not.toBe(0);
		expect(readFileSync(join(place.project, ".gantry", "settings.json"), "utf8")).toBe("{}");
		await symlink(join(place.project, ".gantry", "settings.json"), join(place.project, "link.json"));
		const throughLink = await bash(workspace, "echo hacked > link.json");
		expect(throughLink.exitCode).not.toBe(0);
		expect(readFileSync(join(place.project, ".gantry", "settings.json"), "utf8")).toBe("{}");
	});

	it("hides what sandbox.filesystem.denyRead lists, and allowRead opens a part of it again", async () => {
		await mkdir(join(place.home, ".ssh"));
		writeFileSync(join(place.home, ".ssh", "id_ed25519"), "PRIVATE KEY");
		await mkdir(join(place.project, "secret", "public"), { recursive: true });
		writeFileSync(join(place.project, "secret", "a.txt"), "SECRET A");
		writeFileSync(join(place.project, "secret", "public", "b.txt"), "PUBLIC B");
		workspace = await sandboxed(place, {
			filesystem: { denyRead: ["~/.ssh", "./secret"], allowRead: ["./secret/public"] },
		});
		const result = await bash(workspace, `cat ~/.ssh/id_ed25519 secret/a.txt 2>&1; cat secret/public/b.txt`);
		expect(result.text).not.toContain("PRIVATE KEY");
		expect(result.text).not.toContain("SECRET A");
		expect(result.text).toContain("PUBLIC B");
	});
});
