import { readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { errorText } from "@gantry/ai";
import { createJiti } from "jiti";
import { ExtensionError } from "./errors.js";
import type { Extension } from "./extension-api.js";

/** Options of `loadExtensions`. */
export interface LoadExtensionsOptions {
	/** Relative paths are resolved against this folder; `~/` against the home folder. */
	cwd: string;
	/**
	 * Extra module aliases (import specifier → absolute path), merged over the defaults, e.g. to give
	 * extensions the host's `@gantry/tools`. Default: none. The loader always provides `@gantry/extensions`,
	 * `@gantry/agent`, `@gantry/ai` and `@sinclair/typebox` (the host's copies).
	 */
	alias?: Record<string, string>;
}

/**
 * One entry per requested path, in request order: either the extension function or the error that kept
 * it from loading (`module_not_found`, `invalid_module` or `load_failed`, message naming the path).
 */
export type LoadedExtension =
	| { path: string; extension: Extension; error?: undefined }
	| { path: string; extension?: undefined; error: ExtensionError };

/** Packages an extension gets from the host, whether or not it has them installed itself. */
const PROVIDED_PACKAGES = ["@gantry/ai", "@gantry/agent", "@sinclair/typebox"];

const requireHere = createRequire(import.meta.url);
// Running from `src/*.ts` (tests, workspace) the @gantry packages are provided as sources; built, as `dist`.
const exportCondition = import.meta.url.endsWith(".ts") ? "@gantry/source" : "import";
let defaultAliases: Promise<Record<string, string>> | undefined;

/**
 * Loads extension modules (`.ts`, `.js`, `.mjs`, … — no build step) and returns their default exports.
 * A folder loads its `index.ts` or `index.js`. Never rejects for a broken extension: a missing file, a
 * module without a default function, or one that throws while loading becomes an error entry, and the
 * others still load. Pass the result to `runner.addLoaded`.
 */
export async function loadExtensions(
	paths: readonly string[],
	options: LoadExtensionsOptions,
): Promise<LoadedExtension[]> {
	defaultAliases ??= computeDefaultAliases();
	const alias = { ...(await defaultAliases), ...options.alias };
	const jiti = createJiti(import.meta.url, { alias, interopDefault: true });
	const loaded: LoadedExtension[] = [];
	for (const requested of paths) {
		const path = resolveExtensionPath(requested, options.cwd);
		const fail = (code: "module_not_found" | "invalid_module" | "load_failed", cause: string, error?: unknown) => {
			const message = `Extension ${path} could not be loaded: ${cause}`;
			loaded.push({ path, error: new ExtensionError(code, path, message, { cause: error }) });
		};
		const file = await findModuleFile(path);
		if (file === undefined) {
			fail("module_not_found", "no such file (or folder with index.ts / index.js)");
			continue;
		}
		let exported: unknown;
		try {
			exported = await jiti.import(file, { default: true });
		} catch (error) {
			fail("load_failed", errorText(error), error);
			continue;
		}
		if (typeof exported === "function") loaded.push({ path, extension: exported as Extension });
		else fail("invalid_module", "its default export is not a function (export default (api) => { ... })");
	}
	return loaded;
}

function resolveExtensionPath(requested: string, cwd: string): string {
	if (requested === "~") return homedir();
	if (requested.startsWith("~/")) return join(homedir(), requested.slice(2));
	return resolve(cwd, requested);
}

async function findModuleFile(path: string): Promise<string | undefined> {
	const info = await stat(path).catch(() => undefined);
	if (info?.isFile()) return path;
	if (!info?.isDirectory()) return undefined;
	for (const index of ["index.ts", "index.js"]) {
		const candidate = join(path, index);
		if ((await stat(candidate).catch(() => undefined))?.isFile()) return candidate;
	}
	return undefined;
}

type ExportsMap = Record<string, string | Record<string, string>>;

/**
 * A host that bundles this package (the published `gantry` command) has no `@gantry/*` packages on disk,
 * so its bundler writes `provided-modules.json` beside the bundle: each provided package's name and the
 * bundled file that stands for it, relative to that file. Undefined when there is none (not bundled).
 */
async function bundledModules(): Promise<Record<string, string> | undefined> {
	const manifestUrl = new URL("./provided-modules.json", import.meta.url);
	const text = await readFile(manifestUrl, "utf8").catch(() => undefined);
	if (text === undefined) return undefined;
	const modules = JSON.parse(text) as Record<string, string>;
	const alias: Record<string, string> = {};
	for (const [name, file] of Object.entries(modules)) alias[name] = fileURLToPath(new URL(file, manifestUrl));
	return alias;
}

async function computeDefaultAliases(): Promise<Record<string, string>> {
	const bundled = await bundledModules();
	// Bundled, the @gantry packages are files of the bundle and only third-party ones are looked up on disk.
	const roots =
		bundled === undefined
			? [fileURLToPath(new URL("..", import.meta.url)), ...PROVIDED_PACKAGES.map(findPackageRoot)]
			: PROVIDED_PACKAGES.filter((name) => !name.startsWith("@gantry/")).map(findPackageRoot);
	const alias: Record<string, string> = { ...bundled };
	for (const root of roots) {
		if (root === undefined) continue;
		const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as {
			name: string;
			exports?: ExportsMap;
		};
		Object.assign(alias, packageAliases(manifest.name, root, manifest.exports));
	}
	return alias;
}

/** Maps each export subpath of a workspace package to its file; other packages to their folder. */
function packageAliases(name: string, root: string, exports: ExportsMap | undefined): Record<string, string> {
	if (!name.startsWith("@gantry/") || exports === undefined) return { [name]: root };
	const alias: Record<string, string> = {};
	for (const [subpath, target] of Object.entries(exports)) {
		const file = typeof target === "string" ? target : (target[exportCondition] ?? target.import ?? target.default);
		if (file !== undefined) alias[name + subpath.slice(1)] = join(root, file);
	}
	return alias;
}

function findPackageRoot(name: string): string | undefined {
	try {
		return dirname(requireHere.resolve(`${name}/package.json`));
	} catch {
		// Not every package exports its package.json; walk up from its entry instead.
	}
	let folder: string;
	try {
		folder = dirname(requireHere.resolve(name));
	} catch {
		return undefined;
	}
	while (!folder.endsWith(join("node_modules", name))) {
		const parent = dirname(folder);
		if (parent === folder) return undefined;
		folder = parent;
	}
	return folder;
}
