import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bash, placePerTest, sandboxed } from "./helpers.js";

const here = placePerTest();

/** How many host processes run `sleep <seconds>`. */
function sleeping(seconds: string): number {
	return readdirSync("/proc")
		.filter((name) => /^\d+$/.test(name))
		.filter((pid) => {
			try {
				return readFileSync(`/proc/${pid}/cmdline`, "utf8") === `sleep\0${seconds}\0`;
			} catch {
				return false;
			}
		}).length;
}

describe("a sandboxed command's PID namespace", () => {
	it("has the command as its first process (no reaper started for it), and ends what the command left running", async () => {
		const workspace = await sandboxed(here.place);
		here.workspaces.push(workspace);
		const result = await bash(workspace, "echo $$; sleep 73.25 & echo left");
		expect(result.text).toBe("1\nleft");
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(sleeping("73.25")).toBe(0);
	});
});
