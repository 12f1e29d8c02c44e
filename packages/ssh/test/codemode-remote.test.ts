import { readFile, stat } from "node:fs/promises";
import { type Context, createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import { describe, expect, it } from "vitest";
import type { SshWorkspace } from "../src/index.js";
import type { TestSshServer } from "../src/testing/index.js";
import { useRemoteWorkspace } from "./helpers/workspace.js";

let server: TestSshServer;
let workspace: SshWorkspace;

useRemoteWorkspace((fixture) => {
	({ server, workspace } = fixture);
});

type ToolResultMessage = {
	role: "toolResult";
	isError: boolean;
	content: { type: string; text?: string }[];
	details?: { fullOutputPath?: string };
};

function textOf(message: { content: { type: string; text?: string }[] }): string {
	return message.content.map((block) => block.text ?? "").join("");
}

/** The path the last tool result names as holding the full output. */
function reportedPath(context: Context): string {
	const last = context.messages.at(-1);
	const text = last?.role === "toolResult" ? textOf(last) : "";
	return /the full output is in (\S+) \.\.\.\]/.exec(text)?.[1] ?? "no path reported";
}

describe("codemode in a session over an SSH workspace", () => {
	it("saves the full output on the host, where the model's read finds it", async () => {
		const code = "for (let i = 0; i < 3000; i++) text('line ' + i);";
		let savedBy: number | undefined;
		let saved = "";
		const model = createFauxModel([
			{ toolCalls: [{ id: "cm", name: "codemode", arguments: { code } }] },
			async (context) => {
				const path = reportedPath(context);
				// The "remote" host is this machine, seen as another user: the file's owner says who wrote it.
				savedBy = (await stat(path)).uid;
				saved = await readFile(path, "utf8");
				return { toolCalls: [{ id: "rd", name: "read", arguments: { path, offset: 2998 } }] };
			},
			{ text: "done" },
		]);
		const session = await createAgentSession({
			workspace,
			model,
			tools: ["read", "codemode"],
			codemode: { maxOutputTokens: 50 },
			keepWorkspaceOpen: true,
		});
		try {
			await session.prompt("print many lines");
		} finally {
			await session.dispose();
		}
		const [script, read] = session.messages.filter(
			(message) => (message as { role: string }).role === "toolResult",
		) as unknown as ToolResultMessage[];
		if (script === undefined || read === undefined) throw new Error("expected two tool results");
		const path = script.details?.fullOutputPath ?? "";
		expect(path.startsWith(`${session.tempDir}/codemode-output-`)).toBe(true);
		expect(session.tempDir.startsWith(`${workspace.tempDir}/`)).toBe(true);
		expect(savedBy).toBe(server.uid);
		expect(saved).toBe(Array.from({ length: 3000 }, (_, index) => `line ${index}`).join("\n"));
		expect(read.isError).toBe(false);
		expect(textOf(read)).toContain("line 2997\nline 2998\nline 2999");
	});
});
