// Copies the files that `dist` loads as text (the codemode guest prelude) next to the compiled modules.
// Run after `tsc -p tsconfig.build.json`, from any folder.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
for (const file of ["codemode/guest-prelude.js"]) {
	const target = join(packageRoot, "dist", file);
	mkdirSync(dirname(target), { recursive: true });
	copyFileSync(join(packageRoot, "src", file), target);
}
