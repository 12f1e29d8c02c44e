import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { type Browser, chromium } from "playwright-core";

/** Debian's chromium (or one on PATH); the tests never download a browser. */
export function chromiumPath(): string {
	const candidates = [
		"/usr/bin/chromium",
		...(process.env.PATH ?? "").split(delimiter).map((dir) => join(dir, "chromium")),
	];
	const found = candidates.find((path) => existsSync(path));
	if (!found) throw new Error("chromium is not installed: apt-get install chromium (.ci/run does it)");
	return found;
}

/** A headless chromium, sandbox off (the tests run as root in CI). */
export function launchBrowser(): Promise<Browser> {
	return chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox"] });
}
