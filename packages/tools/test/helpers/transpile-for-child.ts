import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const RELATIVE_IMPORT = /from\s+"(\.{1,2}\/[^"]+)\.js"/g;

/**
 * Compiles `entry` (a TypeScript source file under `root`) and every file it imports by relative path into
 * `outFolder` as plain ESM JavaScript, keeping the layout under `root`, so a child `node` process can run
 * the real source. Returns the path of the compiled entry.
 */
export async function transpileForChild(root: string, entry: string, outFolder: string): Promise<string> {
	const seen = new Set<string>();
	const pending = [entry];
	while (pending.length > 0) {
		const source = pending.pop() as string;
		if (seen.has(source)) continue;
		seen.add(source);
		const text = await readFile(source, "utf8");
		for (const match of text.matchAll(RELATIVE_IMPORT)) pending.push(resolve(dirname(source), `${match[1]}.ts`));
		const output = ts.transpileModule(text, {
			compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
		}).outputText;
		const destination = join(outFolder, relative(root, source)).replace(/\.ts$/, ".js");
		await mkdir(dirname(destination), { recursive: true });
		await writeFile(destination, output);
	}
	return join(outFolder, relative(root, entry)).replace(/\.ts$/, ".js");
}
