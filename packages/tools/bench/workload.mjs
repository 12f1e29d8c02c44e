// Shared benchmark workload: a deterministic 20,000-file source tree with .gitignore files.
//
// Layout (all counts exact, the .gitignore files included):
// - `.gitignore` at the root ignores `dist/`, `*.log` and `/coverage/`.
// - `packages/pkg-NN/` (40 packages), each with its own `.gitignore` ignoring `generated/` and
//   `*.snap` but re-including `keep.snap`; sources spread over nested folders.
// - `dist/`, `coverage/` and every package's `generated/` folder: ignored files (about a sixth of the tree).
// - `wide/`: one folder of exactly 1000 entries (for `ls`).
// Files are mixed .ts/.js/.md of 40-120 lines. `NEEDLE` occurs in about 1.5% of the files (one or two
// lines each); `RARE_NEEDLE` in exactly 3 searchable files.
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export const TREE_FILE_COUNT = 20_000;
export const WIDE_FOLDER = "wide";
export const WIDE_ENTRY_COUNT = 1000;
export const NEEDLE = "gantryNeedleToken";
export const RARE_NEEDLE = "veryRareGantryMarker";

const VERSION = "search-tree-v1";
const PACKAGE_COUNT = 40;
const WORDS = [
	"const",
	"value",
	"return",
	"options",
	"message",
	"result",
	"config",
	"handler",
	"export",
	"function",
	"await",
	"stream",
	"buffer",
	"length",
	"index",
	"error",
	"string",
	"number",
];

/** Small seeded generator so every machine builds the same tree. */
function createRandom(seed) {
	let state = seed >>> 0;
	return () => {
		state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
		return state / 0x1_0000_0000;
	};
}

function fileText(random, extension, needle, rare) {
	const lineCount = 40 + Math.floor(random() * 80);
	const needleLine = needle ? Math.floor(random() * lineCount) : -1;
	const lines = [];
	for (let line = 0; line < lineCount; line++) {
		const width = 3 + Math.floor(random() * 9);
		const words = [];
		for (let word = 0; word < width; word++) words.push(WORDS[Math.floor(random() * WORDS.length)]);
		let text = words.join(" ");
		if (line === needleLine) text += ` ${NEEDLE}`;
		if (rare && line === 7) text += ` ${RARE_NEEDLE}`;
		if (extension === "md") lines.push(line % 10 === 0 ? `## ${text}` : text);
		else if (extension === "ts") lines.push(`\t${text}: ${line};`);
		else lines.push(`  ${text}(${line});`);
	}
	return `${lines.join("\n")}\n`;
}

/** The relative paths and contents of the tree, in a stable order. */
function* treeEntries() {
	const random = createRandom(20_000);
	yield [".gitignore", "dist/\n*.log\n/coverage/\n"];
	let written = 1;
	const extensions = ["ts", "ts", "js", "md"];
	const emit = (path, extension, rareIndex) => {
		written++;
		const needle = random() < 0.015;
		return [path, fileText(random, extension, needle, rareIndex !== undefined)];
	};
	for (let index = 0; index < WIDE_ENTRY_COUNT; index++) {
		yield emit(`${WIDE_FOLDER}/entry-${String(index).padStart(4, "0")}.ts`, "ts");
	}
	for (let index = 0; index < 1200; index++) yield emit(`dist/chunk-${index}.js`, "js");
	for (let index = 0; index < 400; index++) yield emit(`coverage/report-${index}.md`, "md");
	for (let index = 0; index < 200; index++) yield emit(`logs/run-${index}.log`, "md");
	const remaining = TREE_FILE_COUNT - written - 200 - PACKAGE_COUNT * 2;
	const perPackage = Math.floor(remaining / PACKAGE_COUNT);
	let extra = remaining - perPackage * PACKAGE_COUNT;
	for (let pkg = 0; pkg < PACKAGE_COUNT; pkg++) {
		const base = `packages/pkg-${String(pkg).padStart(2, "0")}`;
		yield [`${base}/.gitignore`, "generated/\n*.snap\n!keep.snap\n"];
		yield emit(`${base}/keep.snap`, "md");
		let count = perPackage + (extra > 0 ? 1 : 0);
		if (extra > 0) extra--;
		const generated = Math.floor(count / 8);
		for (let index = 0; index < generated; index++) yield emit(`${base}/generated/gen-${index}.ts`, "ts");
		count -= generated;
		for (let index = 0; index < count; index++) {
			const extension = extensions[index % extensions.length];
			const depth = index % 4;
			const folders = ["src", `area-${index % 6}`, `part-${index % 5}`, `deep-${index % 3}`].slice(0, depth + 1);
			const rareIndex = pkg % 13 === 1 && index === 5 ? pkg : undefined;
			yield emit(`${base}/${folders.join("/")}/file-${index}.${extension}`, extension, rareIndex);
		}
	}
	for (let index = 0; index < 200; index++) yield emit(`docs/notes-${index}.md`, "md");
}

/**
 * Builds the tree under `dir` unless a complete one of the same version is there already.
 * Returns facts the benchmarks print.
 */
export async function ensureTree(dir) {
	// The marker lives next to the tree, not in it, so it is not one of the searched files.
	const marker = join(dirname(dir), `${basename(dir)}.complete`);
	if (existsSync(marker) && (await readFile(marker, "utf8")) === VERSION) return describe(dir);
	await rm(dir, { recursive: true, force: true });
	const made = new Set();
	let count = 0;
	for (const [path, text] of treeEntries()) {
		const folder = join(dir, path, "..");
		if (!made.has(folder)) {
			await mkdir(folder, { recursive: true });
			made.add(folder);
		}
		await writeFile(join(dir, path), text);
		count++;
	}
	if (count !== TREE_FILE_COUNT) throw new Error(`workload: wrote ${count} files, expected ${TREE_FILE_COUNT}`);
	await writeFile(marker, VERSION);
	return describe(dir);
}

function describe(dir) {
	return { dir, files: TREE_FILE_COUNT, wideFolder: join(dir, WIDE_FOLDER), needle: NEEDLE, rareNeedle: RARE_NEEDLE };
}
