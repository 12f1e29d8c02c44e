import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findLookAlikePath, type PathLookup, resolveExistingPath } from "../src/existing-path.js";

let folder: string;

/** The local file system, counting the folder listings resolution asks for. */
const listings: string[] = [];
const localLookup: PathLookup = {
	stat: (path) => stat(path).catch(() => undefined),
	readdir: async (path) => {
		listings.push(path);
		return readdir(path, { withFileTypes: true });
	},
};

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-look-alike-"));
	listings.length = 0;
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

async function resolveIn(typed: string): Promise<string | undefined> {
	return resolveExistingPath(typed, (path) => resolve(folder, path), localLookup);
}

describe("resolveExistingPath: look-alike names", () => {
	it("finds a no-break space typed as a plain space", async () => {
		await writeFile(join(folder, "my\u00A0notes.txt"), "x");
		expect(await resolveIn("my notes.txt")).toBe(join(folder, "my\u00A0notes.txt"));
	});

	it("finds a macOS screenshot name typed with a plain space before PM", async () => {
		const name = "Screenshot 2024-01-02 at 10.00.00\u202FPM.png";
		await writeFile(join(folder, name), "x");
		expect(await resolveIn("Screenshot 2024-01-02 at 10.00.00 PM.png")).toBe(join(folder, name));
	});

	it("finds decomposed accents typed composed, and the reverse", async () => {
		const decomposed = "re\u0301sume\u0301.md";
		const composed = "caf\u00e9.md";
		await writeFile(join(folder, decomposed), "x");
		await writeFile(join(folder, composed.normalize("NFD")), "y");
		expect(await resolveIn("r\u00e9sum\u00e9.md")).toBe(join(folder, decomposed));
		expect(await resolveIn(composed)).toBe(join(folder, composed.normalize("NFD")));
	});

	it("finds a curly apostrophe typed straight, in a folder name too", async () => {
		await mkdir(join(folder, "l\u2019\u00e9t\u00e9"));
		const file = join(folder, "l\u2019\u00e9t\u00e9", "Capture d\u2019\u00e9cran.png");
		await writeFile(file, "x");
		expect(await resolveIn("l'\u00e9t\u00e9/Capture d'\u00e9cran.png")).toBe(file);
	});

	it("takes the exact name first when both exist", async () => {
		await writeFile(join(folder, "a b.txt"), "plain");
		await writeFile(join(folder, "a\u00A0b.txt"), "nbsp");
		expect(await resolveIn("a b.txt")).toBe(join(folder, "a b.txt"));
		expect(await resolveIn("a\u00A0b.txt")).toBe(join(folder, "a\u00A0b.txt"));
	});

	it("gives up when two names look alike", async () => {
		await writeFile(join(folder, "a\u00A0b.txt"), "nbsp");
		await writeFile(join(folder, "a\u202Fb.txt"), "narrow");
		expect(await resolveIn("a b.txt")).toBeUndefined();
	});

	it("lists no folder for a missing plain ASCII name", async () => {
		expect(await resolveIn("src/missing-file.ts")).toBeUndefined();
		expect(await findLookAlikePath(join(folder, "nothing.txt"), localLookup)).toBeUndefined();
		expect(listings).toEqual([]);
	});
});

describe("resolveExistingPath: a leading @", () => {
	it("keeps the @ when a file of that exact name exists", async () => {
		await writeFile(join(folder, "@types.d.ts"), "x");
		await writeFile(join(folder, "types.d.ts"), "y");
		expect(await resolveIn("@types.d.ts")).toBe(join(folder, "@types.d.ts"));
	});

	it("drops the @ only when no file of the exact name exists", async () => {
		await writeFile(join(folder, "notes.md"), "x");
		expect(await resolveIn("@notes.md")).toBe(join(folder, "notes.md"));
		expect(await resolveIn("@missing.md")).toBeUndefined();
	});
});
