import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The package folder (`apps/cli`), found from this file whether it runs as `src/*.ts` (tests, jiti) or
 * as the built `dist/*.js`: both sit one level below it.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The version in package.json. */
export function readVersion(): string {
	const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
		version?: string;
	};
	return manifest.version ?? "0.0.0";
}
