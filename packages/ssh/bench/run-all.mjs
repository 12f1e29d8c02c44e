// Runs every benchmark of this package one after another (each prints its own table).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL(".", import.meta.url));
let failed = 0;
for (const file of readdirSync(dir)
	.filter((name) => name.endsWith(".bench.mjs"))
	.sort()) {
	const result = spawnSync(process.execPath, [`${dir}${file}`], { stdio: "inherit" });
	if (result.status !== 0) {
		failed++;
		console.error(`${file} exited with ${result.status ?? result.signal}`);
	}
}
process.exit(failed > 0 ? 1 : 0);
