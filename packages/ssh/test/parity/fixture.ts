import { execFile } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";

const run = promisify(execFile);

/** Writes the same project into `folder`: text pages, CRLF with a BOM, an image, ignored files, a link. */
export async function writeProject(folder: string, owner?: { uid: number; gid: number }): Promise<void> {
	const lines = Array.from(
		{ length: 3000 },
		(_, index) => `line ${index + 1}: ${["alpha", "beta", "gamma"][index % 3]}`,
	);
	await writeFile(join(folder, "notes.txt"), `${lines.join("\n")}\n`);
	await writeFile(join(folder, "crlf.txt"), "\uFEFFfirst line\r\nsecond line\r\nthird line\r\n");
	await writeFile(join(folder, "wide.txt"), `${"x".repeat(300)} needle ${"y".repeat(300)}\nshort needle\n`);
	await writeFile(join(folder, "binary.bin"), Buffer.from([0, 1, 2, 3, 0, 255, 254, 0]));
	await writeFile(join(folder, ".gitignore"), "*.log\nbuild/\n");
	await writeFile(join(folder, "debug.log"), "needle in a log\n");
	// The repository's own excludes (git's .git/info/exclude): find and grep leave the file out on both sides.
	await mkdir(join(folder, ".git", "info"), { recursive: true });
	await writeFile(join(folder, ".git", "info", "exclude"), "excluded.txt\n");
	await writeFile(join(folder, "excluded.txt"), "needle excluded\n");
	await mkdir(join(folder, "build"));
	await writeFile(join(folder, "build", "out.js"), "needle built\n");
	await mkdir(join(folder, "src", "deep"), { recursive: true });
	await writeFile(join(folder, "src", "main.ts"), 'export const greeting = "hello";\n// needle here\n');
	await writeFile(join(folder, "src", "util.ts"), "export function twice(x: number) {\n\treturn x * 2;\n}\n");
	await writeFile(join(folder, "src", "deep", "inner.ts"), "export const NEEDLE = 1;\n");
	await writeFile(join(folder, ".hidden.ts"), "// hidden needle\n");
	await symlink("src/main.ts", join(folder, "link-to-main.ts"));
	await writeFile(
		join(folder, "picture.png"),
		await sharp({ create: { width: 2400, height: 1200, channels: 3, background: { r: 200, g: 40, b: 90 } } })
			.png()
			.toBuffer(),
	);
	if (owner) await run("chown", ["-R", "-h", `${owner.uid}:${owner.gid}`, folder]);
}
