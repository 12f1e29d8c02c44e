// Benchmark: one edit in a 100,000-line file through the edit tool, against the floor of the same change
// done by hand with node:fs/promises (read, one indexOf, write). Run after `npx tsc -p tsconfig.build.json`.
import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createEditToolDefinition } from "../dist/edit/edit.js";
import { medianMs, printTable } from "./harness.mjs";

const LINE_COUNT = 100_000;
const TARGET_LINE = 50_000;
const RUNS = 15;
const work = fileURLToPath(new URL("../.bench-work/edit/", import.meta.url));

function lineText(index) {
	return `export const value${index} = compute(${index}, "padding text for line ${index}"); // note ${index % 97}`;
}

/**
 * The same 100,000-line file under several names, so no case touches another's file. Written afresh on
 * every run (the cases toggle a line and must start from a known state). `loose` ends with a line with
 * trailing spaces, so the fuzzy fallback has to build the normalised copy of the whole file.
 */
async function prepareFiles() {
	await mkdir(work, { recursive: true });
	const content = `${Array.from({ length: LINE_COUNT }, (_, index) => lineText(index + 1)).join("\n")}\n`;
	const paths = {
		gantry: join(work, "big-gantry.ts"),
		floor: join(work, "big-floor.ts"),
		fuzzy: join(work, "big-fuzzy.ts"),
		loose: join(work, "big-loose.ts"),
	};
	for (const [name, path] of Object.entries(paths))
		await writeFile(path, name === "loose" ? `${content}// trailing spaces   \n` : content);
	return paths;
}

/** Alternates between two versions of the target line so every run makes a real change. */
function toggler(before, after) {
	let current = before;
	return () => {
		const pair = current === before ? [before, after] : [after, before];
		current = pair[1];
		return { oldText: pair[0], newText: pair[1] };
	};
}

async function floorEdit(path, edit) {
	const text = await readFile(path, "utf8");
	const at = text.indexOf(edit.oldText);
	if (at === -1) throw new Error("floor: oldText not found");
	await writeFile(path, text.slice(0, at) + edit.newText + text.slice(at + edit.oldText.length));
}

const paths = await prepareFiles();
const tool = createEditToolDefinition(work);
const target = `value${TARGET_LINE} = compute(`;
const gantryNext = toggler(target, `value${TARGET_LINE} = computeChanged(`);
const floorNext = toggler(target, `value${TARGET_LINE} = computeChanged(`);

/**
 * Median times of several cases measured in alternating rounds, so that a slow spell of the shared
 * machine (or of the disk's writeback) hits every case alike.
 */
async function interleavedMedians(cases, rounds) {
	const times = cases.map(() => []);
	for (const run of cases) await run();
	for (let round = 0; round < rounds; round++)
		for (const [index, run] of cases.entries()) times[index].push(await medianMs(run, { runs: 1, warmup: 0 }));
	return times.map((list) => list.sort((left, right) => left - right)[Math.floor(list.length / 2)]);
}

// The fuzzy fallback on the same file: the model wrote typographic quotes the file does not have, in
// both directions of the toggle.
const plainLine = lineText(TARGET_LINE).slice(0, 60);
const touchedLine = `${plainLine} /* touched */`;
const curly = (text) => text.replace(/"/g, "\u201c");
/** A case that toggles the target line with oldText in curly quotes, so every run takes the fuzzy path. */
function fuzzyCase(path) {
	let touched = false;
	return async () => {
		const edit = touched
			? { oldText: curly(touchedLine), newText: plainLine }
			: { oldText: curly(plainLine), newText: touchedLine };
		touched = !touched;
		const result = await tool.execute("bench", { path, edits: [edit] });
		if (!result.content[0].text.includes("1 matched only after normalising")) throw new Error("expected a fuzzy match");
	};
}

const [gantryMs, floorMs, fuzzyMs, looseMs] = await interleavedMedians(
	[
		async () => {
			const result = await tool.execute("bench", { path: paths.gantry, edits: [gantryNext()] });
			if (result.details.firstChangedLine !== TARGET_LINE) throw new Error("edit landed on the wrong line");
		},
		() => floorEdit(paths.floor, floorNext()),
		fuzzyCase(paths.fuzzy),
		fuzzyCase(paths.loose),
	],
	RUNS,
);

const size = (await stat(paths.gantry)).size;
const note = `${LINE_COUNT.toLocaleString("en")} lines, ${(size / 1024 / 1024).toFixed(1)} MB`;
printTable("edit: one edit in a 100,000-line file", [
	{ case: "edit, exact match", gantryMs, floor: "read + indexOf + write", floorMs, target: "<= 1.5x", note },
	{ case: "edit, fuzzy match (quotes)", gantryMs: fuzzyMs, floor: "read + indexOf + write", floorMs, note },
	{
		case: "edit, fuzzy match, file needs normalising",
		gantryMs: looseMs,
		floor: "read + indexOf + write",
		floorMs,
		note: "worst case: normalised copy of the whole file",
	},
]);
