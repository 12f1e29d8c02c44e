import { mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { withTempDir } from "../session/helpers.js";
import { callResults } from "./run-calls.js";

const patch = (...body: string[]) => ({ input: ["*** Begin Patch", ...body, "*** End Patch"].join("\n") });

/** Every file under `root` with its content, to show a blocked patch changed nothing. */
async function snapshot(root: string): Promise<Record<string, string>> {
	const files: Record<string, string> = {};
	const walk = async (folder: string): Promise<void> => {
		for (const entry of await readdir(folder, { withFileTypes: true })) {
			const path = join(folder, entry.name);
			if (entry.isDirectory()) await walk(path);
			else if (!entry.isSymbolicLink()) files[relative(root, path)] = await readFile(path, "utf8");
		}
	};
	await walk(root);
	return files;
}

describe("edit(…) deny rules and apply_patch: every file of the patch is judged", () => {
	it.each(["bypassPermissions", "acceptEdits", "default"] as const)(
		"edit(secret/**) blocks a patch whose third file is under secret/, and nothing of it is written (%s)",
		(mode) =>
			withTempDir(async (cwd) => {
				await mkdir(join(cwd, "src"));
				await mkdir(join(cwd, "secret"));
				await writeFile(join(cwd, "src", "app.ts"), "export const a = 1;\n");
				await writeFile(join(cwd, "secret", "key.pem"), "PRIVATE\n");
				await symlink("secret", join(cwd, "vault"));
				const before = await snapshot(cwd);
				const first = ["*** Update File: src/app.ts", "-export const a = 1;", "+export const a = 2;"];
				const second = ["*** Add File: docs/notes.md", "+notes"];
				const thirds = [
					["*** Add File: secret/planted.txt", "+x"],
					["*** Update File: secret/key.pem", "-PRIVATE", "+OWNED"],
					["*** Delete File: secret/key.pem"],
					// Respelled, through a link, and as the target of a move.
					["*** Add File: src/../secret/planted.txt", "+x"],
					["*** Add File: vault/planted.txt", "+x"],
					["*** Update File: docs/other.md", "*** Move to: secret/moved.md", "-a", "+b"],
				];
				const results = await callResults(
					{
						cwd,
						permissionMode: mode,
						settings: { permissions: { deny: ["edit(secret/**)"] } },
						tools: ["*", "apply_patch"],
					},
					thirds.map((third) => ({ name: "apply_patch", arguments: patch(...first, ...second, ...third) })),
				);
				expect(results).toHaveLength(thirds.length);
				for (const [index, result] of results.entries()) {
					expect(result.isError, `patch ${index}`).toBe(true);
					expect(result.text, `patch ${index}`).toContain("the deny rule edit(secret/**)");
				}
				expect(await snapshot(cwd)).toEqual(before);
			}),
	);

	it("lets the same patch run once its third file is outside secret/", () =>
		withTempDir(async (cwd) => {
			await mkdir(join(cwd, "src"));
			await writeFile(join(cwd, "src", "app.ts"), "export const a = 1;\n");
			const [result] = await callResults(
				{
					cwd,
					permissionMode: "bypassPermissions",
					settings: { permissions: { deny: ["edit(secret/**)"] } },
					tools: ["*", "apply_patch"],
				},
				[
					{
						name: "apply_patch",
						arguments: patch(
							"*** Update File: src/app.ts",
							"-export const a = 1;",
							"+export const a = 2;",
							"*** Add File: docs/notes.md",
							"+notes",
							"*** Add File: public/readme.txt",
							"+hi",
						),
					},
				],
			);
			expect(result).toMatchObject({ isError: false });
			expect(await readFile(join(cwd, "src", "app.ts"), "utf8")).toBe("export const a = 2;\n");
			expect(await readFile(join(cwd, "public", "readme.txt"), "utf8")).toBe("hi\n");
		}));
});
