import { describe, expect, it } from "vitest";
import { bash, placePerTest, processesWhere, sandboxed } from "./helpers.js";

const here = placePerTest();

describe("a sandboxed command's PID namespace", () => {
	it("has the command as its first process (no reaper started for it), and ends what the command left running", async () => {
		const workspace = await sandboxed(here.place);
		here.workspaces.push(workspace);
		const result = await bash(workspace, "echo $$; sleep 73.25 & echo left");
		expect(result.text).toBe("1\nleft");
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(processesWhere((line) => line === "sleep 73.25")).toEqual([]);
	});
});
