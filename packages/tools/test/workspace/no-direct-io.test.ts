// The builtins reach files and processes only through a Workspace: no module outside
// src/workspace/local/ imports the local file system, processes or OS (or the libraries that use them).
// src/testing/ (the mapped workspace of @gantry/tools/testing) is a Workspace implementation too.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SOURCE = fileURLToPath(new URL("../../src/", import.meta.url));
const LOCAL_ONLY = new Set([
	"fs",
	"fs/promises",
	"node:fs",
	"node:fs/promises",
	"child_process",
	"node:child_process",
	"os",
	"node:os",
	"execa",
	"fast-glob",
]);
const LOCAL_FOLDERS = ["workspace/local/", "testing/"];

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const path = join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(path);
		return entry.name.endsWith(".ts") ? [path] : [];
	});
}

/** Every module a file names: static imports, re-exports and dynamic `import("…")`. */
function importedModules(text: string): string[] {
	const names: string[] = [];
	const patterns = [
		/(?:^|\n)\s*(?:import|export)\b[^"'`;]*?\bfrom\s*["']([^"']+)["']/g,
		/(?:^|\n)\s*import\s*["']([^"']+)["']/g,
		/\bimport\(\s*["']([^"']+)["']\s*\)/g,
		/\brequire\(\s*["']([^"']+)["']\s*\)/g,
	];
	// Each pattern's one group is not optional, so every match names a module.
	for (const pattern of patterns)
		for (const [, name] of text.matchAll(pattern)) if (name !== undefined) names.push(name);
	return names;
}

describe("no builtin touches this machine directly", () => {
	const files = sourceFiles(SOURCE).map((path) => ({ path, name: relative(SOURCE, path).split("\\").join("/") }));

	it("finds the source files and their imports", () => {
		expect(files.map((file) => file.name)).toEqual(expect.arrayContaining(["read/read.ts", "shell/bash.ts"]));
		const local = files.find((file) => file.name === "workspace/local/file-system.ts");
		expect(importedModules(readFileSync(local?.path ?? "", "utf8"))).toContain("node:fs");
	});

	it("only src/workspace/local/ imports node:fs, node:child_process, node:os, execa or fast-glob", () => {
		const offenders: string[] = [];
		for (const file of files) {
			if (LOCAL_FOLDERS.some((folder) => file.name.startsWith(folder))) continue;
			for (const module of importedModules(readFileSync(file.path, "utf8")))
				if (LOCAL_ONLY.has(module)) offenders.push(`${file.name} imports ${module}`);
		}
		expect(offenders).toEqual([]);
	});
});
