#!/usr/bin/env node
// `pnpm pack:all [--out <folder>] [--json]`: builds every publishable package of the workspace (each
// package under packages/ and apps/ without `"private": true`) and packs each with `pnpm pack` into one
// folder (default: packs/ at the repository root), as installable tarballs: `workspace:` and `catalog:`
// ranges replaced by real versions. Install them with npm from that folder, e.g.
//   npm install ./packs/gantry-ai-0.1.0.tgz ./packs/gantry-agent-0.1.0.tgz
//   npm install -g ./packs/gantry-cli-0.1.0.tgz
// The command checks every tarball's manifest: no `workspace:` or `catalog:` range left, and no
// dependency on a @gantry package that is not packed with it. `--json` prints
// `[{ "name", "version", "file" }]` on stdout instead of the table. Exits non-zero, saying why, on failure.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const root = fileURLToPath(new URL("..", import.meta.url));

/** Every package under packages/ and apps/ that is not private, sorted by name. */
export function publishablePackages(workspaceRoot = root) {
	const found = [];
	for (const group of ["packages", "apps"]) {
		const groupDir = join(workspaceRoot, group);
		if (!existsSync(groupDir)) continue;
		for (const entry of readdirSync(groupDir)) {
			const dir = join(groupDir, entry);
			const manifestPath = join(dir, "package.json");
			if (!existsSync(manifestPath)) continue;
			const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
			if (manifest.private !== true) found.push({ name: manifest.name, version: manifest.version, dir });
		}
	}
	return found.sort((a, b) => a.name.localeCompare(b.name));
}

/** What is wrong with a packed manifest, given the names of the packages packed with it. */
export function manifestProblems(manifest, packedNames) {
	const problems = [];
	for (const field of ["dependencies", "peerDependencies", "optionalDependencies"]) {
		for (const [name, range] of Object.entries(manifest[field] ?? {})) {
			if (/^(workspace|catalog):/.test(range)) problems.push(`${field} keeps "${name}": "${range}"`);
			if (name.startsWith("@gantry/") && !packedNames.has(name)) {
				problems.push(`${field} names ${name}, which is not packed (private or not in the workspace)`);
			}
		}
	}
	return problems;
}

/** The `package.json` inside a tarball. */
async function packedManifest(tarball) {
	const { stdout } = await run("tar", ["-xzOf", tarball, "package/package.json"], { maxBuffer: 16 * 1024 * 1024 });
	return JSON.parse(stdout);
}

/** Builds (through turbo, so up-to-date builds come from its cache) and packs every publishable package. */
export async function packAll(outDir) {
	const packages = publishablePackages();
	const turbo = createRequire(join(root, "package.json")).resolve("turbo/bin/turbo");
	const filters = packages.map((found) => `--filter=${found.name}`);
	try {
		await run(process.execPath, [turbo, "run", "build", ...filters, "--output-logs=errors-only"], {
			cwd: root,
			env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1" },
			maxBuffer: 64 * 1024 * 1024,
		});
	} catch (error) {
		throw new Error(`the build failed:\n${error.stdout ?? ""}${error.stderr ?? ""}`);
	}
	mkdirSync(outDir, { recursive: true });
	const packedNames = new Set(packages.map((found) => found.name));
	const packed = [];
	const problems = [];
	for (const found of packages) {
		const expected = `${found.name.replace(/^@/, "").replace("/", "-")}-${found.version}.tgz`;
		rmSync(join(outDir, expected), { force: true });
		const { stdout } = await run("pnpm", ["pack", "--pack-destination", outDir], { cwd: found.dir });
		const printed = stdout
			.trim()
			.split("\n")
			.map((line) => line.trim())
			.findLast((line) => line.endsWith(".tgz"));
		const file = printed === undefined ? join(outDir, expected) : resolve(outDir, printed);
		if (!existsSync(file)) throw new Error(`pnpm pack made no tarball for ${found.name}:\n${stdout}`);
		for (const problem of manifestProblems(await packedManifest(file), packedNames)) {
			problems.push(`${found.name}: ${problem}`);
		}
		packed.push({ name: found.name, version: found.version, file });
	}
	if (problems.length > 0) throw new Error(`the packed manifests are not installable:\n${problems.join("\n")}`);
	return packed;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
	const args = process.argv.slice(2);
	const outIndex = args.indexOf("--out");
	const outArg = outIndex === -1 ? join(root, "packs") : args[outIndex + 1];
	const unknown = args.filter((arg, index) => arg !== "--json" && index !== outIndex && index !== outIndex + 1);
	if (outArg === undefined || outArg.startsWith("--") || unknown.length > 0) {
		console.error(
			`pack:all: usage: pnpm pack:all [--out <folder>] [--json]${unknown.length > 0 ? ` (not known: ${unknown.join(" ")})` : ""}`,
		);
		process.exit(2);
	}
	const outDir = isAbsolute(outArg) ? outArg : resolve(process.env.INIT_CWD ?? process.cwd(), outArg);
	try {
		const packed = await packAll(outDir);
		if (args.includes("--json")) {
			console.log(JSON.stringify(packed, null, "\t"));
		} else {
			const shown = (file) => relative(process.env.INIT_CWD ?? process.cwd(), file) || file;
			const width = Math.max(...packed.map((entry) => entry.name.length));
			for (const entry of packed)
				console.log(`${entry.name.padEnd(width)}  ${entry.version.padEnd(7)}  ${shown(entry.file)}`);
			console.log(
				`\n${packed.length} tarballs in ${shown(outDir)}; install with npm install <tarball>… (see README.md)`,
			);
		}
	} catch (error) {
		console.error(`pack:all: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	}
}
