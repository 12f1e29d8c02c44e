#!/usr/bin/env node
// Builds the gantry command into dist/: src/main.ts and the @gantry/* libraries it uses, bundled from their
// TypeScript sources into ES modules that share chunks, so the published package needs none of the
// (unpublished) libraries. Every third-party package stays an import, installed from this package's own
// `dependencies`. The build fails, saying what to change, when
// - the bundle imports a package that `dependencies` does not declare, or declares one it never uses;
// - a bundled module opens a file beside itself (`new URL("./x", import.meta.url)`) that is not there.
// Files a library reads beside its module (the codemode guest prelude) are copied into dist/, and
// `provided-modules.json` tells the extension loader which bundled files stand for the packages an
// extension imports (`@gantry/extensions`, `@gantry/ai`, `@gantry/agent`).
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { copyFile, mkdir } from "node:fs/promises";
import { builtinModules, createRequire } from "node:module";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const distDir = join(packageRoot, "dist");
const manifest = JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8"));
const requireHere = createRequire(join(packageRoot, "package.json"));

/** The packages an extension may import at run time, which the loader maps to the host's copies. */
const PROVIDED = ["@gantry/extensions", "@gantry/ai", "@gantry/agent"];
const SOURCE_CONDITION = "@gantry/source";
const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** `openai/resources` → `openai`; `@scope/name/x` → `@scope/name`. */
function packageName(specifier) {
	const parts = specifier.split("/");
	return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The TypeScript entry of a workspace library, from its `exports["."]["@gantry/source"]`. */
function sourceEntry(name) {
	const libraryManifestPath = requireHere.resolve(`${name}/package.json`);
	const libraryManifest = JSON.parse(readFileSync(libraryManifestPath, "utf8"));
	return join(dirname(libraryManifestPath), libraryManifest.exports["."][SOURCE_CONDITION]);
}

/** What the bundled modules need from outside: packages, files beside them, packages resolved by path. */
const needs = { packages: new Set(), files: new Map(), resolved: new Set() };
const FILE_BESIDE = /new URL\(\s*(["'])([^"']+)\1\s*,\s*import\.meta\.url\s*\)/g;
const RESOLVED_PATH = /(?:require|\))\.resolve\(\s*(["'])([^"'./][^"']*)\1\s*\)/g;

/** Keeps third-party packages external and notes what each bundled source file reads beside itself. */
const externalsPlugin = {
	name: "gantry-externals",
	setup(build) {
		build.onResolve({ filter: /^[^./]/ }, (args) => {
			if (args.path.startsWith("@gantry/") || builtins.has(args.path)) return undefined;
			needs.packages.add(packageName(args.path));
			return { path: args.path, external: true };
		});
		build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
			if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
			const text = readFileSync(args.path, "utf8");
			for (const match of text.matchAll(FILE_BESIDE)) {
				needs.files.set(resolve(distDir, match[2]), { source: resolve(dirname(args.path), match[2]), from: args.path });
			}
			for (const match of text.matchAll(RESOLVED_PATH)) needs.resolved.add(packageName(match[2]));
			return undefined;
		});
	},
};

function fail(problems) {
	console.error(`@gantry/cli bundle: ${problems.join("\n@gantry/cli bundle: ")}`);
	process.exit(1);
}

rmSync(distDir, { recursive: true, force: true });
const entryPoints = { main: join(packageRoot, "src", "main.ts") };
const provided = {};
for (const name of PROVIDED) {
	const file = `provided-${name.slice("@gantry/".length)}`;
	entryPoints[file] = sourceEntry(name);
	provided[name] = `./${file}.js`;
}
// Every output sits directly in dist/, one level below the package root as src/ is, so a module's
// `new URL("../package.json", import.meta.url)` means the same file in both.
await build({
	entryPoints,
	outdir: distDir,
	bundle: true,
	splitting: true,
	format: "esm",
	platform: "node",
	target: "node20.19",
	conditions: [SOURCE_CONDITION],
	chunkNames: "chunk-[hash]",
	legalComments: "none",
	logLevel: "warning",
	plugins: [externalsPlugin],
});
writeFileSync(join(distDir, "provided-modules.json"), `${JSON.stringify(provided, null, "\t")}\n`);

const problems = [];
for (const [target, { source, from }] of needs.files) {
	if (existsSync(target)) continue;
	if (target.startsWith(distDir + sep) && existsSync(source)) {
		await mkdir(dirname(target), { recursive: true });
		await copyFile(source, target);
	} else {
		const shown = relative(packageRoot, target);
		problems.push(`${relative(packageRoot, from)} reads ${shown} beside the bundle, and nothing puts it there`);
	}
}
const declared = new Set(Object.keys(manifest.dependencies ?? {}));
const used = new Set([...needs.packages, ...needs.resolved]);
const undeclared = [...used].filter((name) => !declared.has(name)).sort();
const unused = [...declared].filter((name) => !used.has(name)).sort();
if (undeclared.length > 0) {
	problems.push(
		`the bundle imports ${undeclared.join(", ")}, which apps/cli/package.json does not declare: add each to its "dependencies" as "catalog:"`,
	);
}
if (unused.length > 0) {
	problems.push(`apps/cli/package.json declares ${unused.join(", ")}, which the bundle never uses: remove it`);
}
if (problems.length > 0) fail(problems);
