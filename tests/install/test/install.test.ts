// Each published library, packed by `pnpm pack:all` as `pnpm publish` would pack it and installed alone
// into an empty project with npm, the way a user meets it: it must install, import with the same runtime
// exports as its sources, and stay within its size budget.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const run = promisify(execFile);
const ROOT = new URL("../../../", import.meta.url).pathname;
const MIB = 1024 * 1024;

/** Installed size budgets, in MiB, where a package promises one. */
const SIZE_BUDGETS: Record<string, number> = {
	// The package extension authors depend on: types, the runner and the loader, no provider SDK.
	"@gantry/extensions": 15,
};
/** Provider SDKs: optional peers of `@gantry/ai`, installed only by the packages that run a model. */
const PROVIDER_SDKS = ["openai", "@anthropic-ai/sdk"];
/**
 * The libraries that depend on the provider SDKs: coding-agent runs a model itself; mcp depends on
 * coding-agent at run time (a project's .mcp.json expands variables only in a folder it trusts).
 */
const BRINGS_PROVIDER_SDKS = new Set(["@gantry/coding-agent", "@gantry/mcp"]);

interface Manifest {
	name: string;
	private?: boolean;
	dependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

interface Library {
	name: string;
	dir: string;
	manifest: Manifest;
}

function publishedLibraries(): Library[] {
	const packagesDir = join(ROOT, "packages");
	const libraries: Library[] = [];
	for (const entry of readdirSync(packagesDir)) {
		const dir = join(packagesDir, entry);
		const manifestPath = join(dir, "package.json");
		if (!existsSync(manifestPath)) continue;
		const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
		if (manifest.private !== true) libraries.push({ name: manifest.name, dir, manifest });
	}
	return libraries.sort((a, b) => a.name.localeCompare(b.name));
}

/** The library and every Gantry library it needs at run time, through required dependencies. */
function gantryClosure(name: string, byName: Map<string, Library>): string[] {
	const seen = new Set<string>();
	const visit = (current: string) => {
		if (seen.has(current)) return;
		seen.add(current);
		const manifest: Manifest = byName.get(current)?.manifest ?? { name: current };
		const required = { ...manifest.dependencies };
		for (const [peer, range] of Object.entries(manifest.peerDependencies ?? {})) {
			if (manifest.peerDependenciesMeta?.[peer]?.optional !== true) required[peer] = range;
		}
		for (const dependency of Object.keys(required)) if (byName.has(dependency)) visit(dependency);
	};
	visit(name);
	return [...seen];
}

/** Apparent size of every file under `dir` (links not followed). */
function treeBytes(dir: string): number {
	let total = 0;
	for (const entry of readdirSync(dir, { withFileTypes: true })) {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) total += treeBytes(path);
		else if (entry.isFile()) total += statSync(path).size;
	}
	return total;
}

const libraries = publishedLibraries();
const byName = new Map(libraries.map((library) => [library.name, library]));
let workDir = "";
const tarballs = new Map<string, string>();

beforeAll(async () => {
	workDir = await mkdtemp(join(tmpdir(), "gantry-install-"));
	for (const packed of inject("packs")) tarballs.set(packed.name, packed.file);
});

afterAll(async () => {
	if (workDir !== "") await rm(workDir, { recursive: true, force: true });
});

describe("each library installed alone", () => {
	it("finds the published libraries, and pack:all packs each of them", () => {
		expect(libraries.map((library) => library.name)).toEqual(
			expect.arrayContaining([
				"@gantry/agent",
				"@gantry/ai",
				"@gantry/coding-agent",
				"@gantry/extensions",
				"@gantry/mcp",
				"@gantry/sandbox",
				"@gantry/ssh",
				"@gantry/tools",
			]),
		);
		for (const library of libraries) expect(tarballs.get(library.name), library.name).toMatch(/\.tgz$/);
	});

	for (const library of libraries) {
		it(`${library.name} installs, imports and stays within its budget`, async () => {
			const project = join(workDir, library.name.replace("/", "__"));
			await mkdir(project);
			await writeFile(
				join(project, "package.json"),
				JSON.stringify({ name: "consumer", private: true, type: "module" }),
			);
			const specs = gantryClosure(library.name, byName).map((name) => tarballs.get(name) as string);
			await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...specs], { cwd: project });

			const { stdout } = await run(
				"node",
				[
					"--input-type=module",
					"-e",
					`const m = await import(${JSON.stringify(library.name)}); console.log(JSON.stringify(Object.keys(m).sort()));`,
				],
				{ cwd: project },
			);
			// The same runtime exports as the sources (resolved here through the workspace's aliases).
			const sources = (await import(/* @vite-ignore */ library.name)) as Record<string, unknown>;
			expect(JSON.parse(stdout.trim())).toEqual(Object.keys(sources).sort());

			const nodeModules = join(project, "node_modules");
			const bytes = treeBytes(nodeModules);
			console.log(`${library.name}: ${(bytes / MIB).toFixed(1)} MiB installed`);
			const budget = SIZE_BUDGETS[library.name];
			if (budget !== undefined) {
				expect(bytes / MIB, `${library.name} installs ${(bytes / MIB).toFixed(1)} MiB`).toBeLessThan(budget);
			}
			for (const sdk of PROVIDER_SDKS) {
				const expected = BRINGS_PROVIDER_SDKS.has(library.name);
				expect(existsSync(join(nodeModules, sdk)), `${library.name} brings ${sdk}`).toBe(expected);
			}
		});
	}
});
