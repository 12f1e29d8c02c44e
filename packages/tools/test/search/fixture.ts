import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/** Writes `files` (relative path → content) under `root`, creating folders. */
export async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
	for (const [path, content] of Object.entries(files)) {
		await mkdir(dirname(join(root, path)), { recursive: true });
		await writeFile(join(root, path), content);
	}
}

/** A fresh temporary folder, and a function that removes it. */
export async function makeTempFolder(
	prefix = "gantry-search-",
): Promise<{ root: string; remove: () => Promise<void> }> {
	const root = await mkdtemp(join(tmpdir(), prefix));
	return { root, remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * The shared search fixture: .gitignore rules (nested ones and a negation), hidden files, a binary
 * file, CRLF and BOM files, a long line, a file without a final newline, `.git` contents, links.
 * Every searchable file holds "alpha"; every file that must stay hidden holds "alpha" too.
 */
export const SEARCH_FIXTURE: Record<string, string | Buffer> = {
	".gitignore": "*.log\nbuild/\n/top-only.txt\n",
	"a.ts": "const alpha = 1;\nconst beta = 2;\n// ALPHA upper\n-flag alpha\nfinal line\n",
	"b.md": "# Title\n\nalpha in markdown\n",
	"c.js": "one\ntwo\nthree alpha\nfour\nfive\nsix\nseven\neight alpha\nnine\n",
	".env": "ALPHA_KEY=alpha\n",
	".hidden/secret.ts": "export const alpha = 'hidden';\n",
	"build/out.js": "alpha ignored by build/\n",
	"app.log": "alpha ignored by *.log\n",
	"top-only.txt": "alpha ignored by /top-only.txt\n",
	"sub/.gitignore": "!keep.log\ngenerated/\n",
	"sub/keep.log": "alpha kept by !keep.log\n",
	"sub/other.log": "alpha still ignored\n",
	"sub/generated/gen.ts": "alpha ignored by sub/.gitignore\n",
	"sub/deep/top-only.txt": "alpha not ignored: the rule is anchored\n",
	"sub/deep/-dash.ts": "-flag alpha\n",
	"bin.dat": Buffer.from("alpha\u0000binary\nalpha\n", "utf8"),
	"crlf.txt": "alpha one\r\nbeta\r\nalpha$\r\n",
	"bom.txt": "\ufeffalpha with bom\n",
	"long.txt": `alpha ${"x".repeat(1000)}\n`,
	"no-newline.txt": "first\nlast alpha",
	"unicode.txt": "Ärger ÄLPHA straße\nalpha ü\n",
	"node_modules/pkg/index.js": "alpha in node_modules\n",
	".git/config": "alpha in .git\n",
	".git/HEAD": "ref: alpha\n",
};

/** Writes the shared fixture plus a link to a file and a link to a folder. */
export async function writeSearchFixture(root: string): Promise<void> {
	await writeTree(root, SEARCH_FIXTURE);
	await symlink(join(root, "a.ts"), join(root, "link-to-a.ts"));
	await symlink(join(root, "sub"), join(root, "link-to-sub"));
}
