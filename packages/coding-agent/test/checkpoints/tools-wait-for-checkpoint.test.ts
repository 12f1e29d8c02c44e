import { existsSync } from "node:fs";
import { join } from "node:path";
import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { gatedGitWorkspace, usePlace } from "./helpers.js";

const place = usePlace("gantry-checkpoint-wait-");

describe("the checkpoint before a prompt", () => {
	it("does not hold up the model request; tool calls wait for it, so rewind still undoes them", async () => {
		const { workspace, release, gitStarted } = gatedGitWorkspace(place.project);
		const model = createFauxModel([
			{ toolCalls: [{ name: "write", arguments: { path: "made.txt", content: "made by the model\n" } }] },
			{ text: "done" },
		]);
		const session = await createAgentSession({ workspace, home: place.home, model, tools: ["write"] });
		try {
			const prompt = session.prompt("make a file");
			await gitStarted;
			// The checkpoint's git is held: the model is asked all the same, but its write does not run yet.
			for (let tries = 0; model.calls.length === 0 && tries < 500; tries++) {
				await new Promise((resolve) => setTimeout(resolve, 10));
			}
			expect(model.calls).toHaveLength(1);
			await new Promise((resolve) => setTimeout(resolve, 100));
			expect(existsSync(join(place.project, "made.txt"))).toBe(false);
			release();
			await prompt;
			expect(existsSync(join(place.project, "made.txt"))).toBe(true);
			const [checkpoint] = session.listCheckpoints();
			expect(checkpoint?.files).toEqual(["made.txt"]);
			await session.rewind(checkpoint?.id ?? "", { code: true });
			expect(existsSync(join(place.project, "made.txt"))).toBe(false);
		} finally {
			release();
			await session.dispose();
		}
	});
});
