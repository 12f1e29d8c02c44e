import { readFileSync } from "node:fs";

let source: string | undefined;

/**
 * The source of the guest prelude, `guest-prelude.js` beside this module (in `src` for the tests, copied
 * into `dist` by the build), read once per process.
 */
export function guestPreludeSource(): string {
	source ??= readFileSync(new URL("./guest-prelude.js", import.meta.url), "utf8");
	return source;
}
