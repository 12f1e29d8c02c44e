import { execFileSync } from "node:child_process";

/** Whether `rg` runs here. The ripgrep engine's tests are skipped (with a warning) when it does not. */
export const ripgrepAvailable = (() => {
	try {
		execFileSync("rg", ["--version"], { stdio: "ignore" });
		return true;
	} catch {
		console.warn("rg is not on PATH: the ripgrep engine tests are skipped. Install ripgrep to run them.");
		return false;
	}
})();
