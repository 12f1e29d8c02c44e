import { createGrepToolDefinition } from "@gantry/tools";
import { describe, expect, it } from "vitest";
import type { SshWorkspace } from "../src/index.js";
import { useRemoteWorkspace } from "./helpers/workspace.js";

let workspace: SshWorkspace;
let folder: string;

useRemoteWorkspace(async (fixture) => {
	({ folder, workspace } = fixture);
	await workspace.fs.writeFileAtomic(`${folder}/notes.txt`, Buffer.from("first line\nthe needle is here\n"));
});

function grep(pattern: string, engine: "auto" | "ripgrep") {
	return createGrepToolDefinition(workspace, { engine }).execute(
		"remote-grep",
		{ pattern },
		undefined,
		undefined,
		undefined as never,
	);
}

describe("grep over SSH with a pattern too long for a command line", () => {
	// About 200 KB. The remote shell cannot even start a command this long: rg never ran, and its
	// silent end used to read as "No matches found".
	const pattern = [...Array.from({ length: 20_000 }, (_, index) => `absent${index}`), "needle"].join("|");

	it("auto searches with the built-in engine and finds the match", async () => {
		const result = await grep(pattern, "auto");
		expect(result.details?.engine).toBe("builtin");
		expect(result.content).toEqual([{ type: "text", text: "notes.txt:2: the needle is here" }]);
	});

	it("the ripgrep engine says the pattern is too long", async () => {
		await expect(grep(pattern, "ripgrep")).rejects.toThrow(/pattern is too long for the ripgrep engine/);
	});
});
