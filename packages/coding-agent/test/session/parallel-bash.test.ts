import { createFauxModel } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { toolResults, withTempDir } from "./helpers.js";

describe("many bash calls at once", () => {
	it("twelve parallel bash calls and a codemode Promise.all of twelve print no MaxListenersExceededWarning", () =>
		withTempDir(async (cwd) => {
			const warnings: Error[] = [];
			const onWarning = (warning: Error) => warnings.push(warning);
			process.on("warning", onWarning);
			try {
				const calls = Array.from({ length: 12 }, (_, index) => ({
					id: `b${index}`,
					name: "bash",
					arguments: { command: `echo ${index}` },
				}));
				const code = [
					"const results = await Promise.all(",
					'  Array.from({ length: 12 }, (_, index) => tools.bash({ command: "echo " + index })),',
					");",
					"return results.length;",
				].join("\n");
				const model = createFauxModel([
					{ toolCalls: calls },
					{ toolCalls: [{ id: "cm", name: "codemode", arguments: { code } }] },
					{ text: "done" },
				]);
				const session = await createAgentSession({ cwd, model, tools: ["*", "codemode"] });
				await session.prompt("go");
				const results = toolResults(session.messages);
				expect(results).toHaveLength(13);
				expect(results.every((result) => !result.isError)).toBe(true);
				await session.dispose();
				await new Promise((resolve) => setImmediate(resolve));
			} finally {
				process.off("warning", onWarning);
			}
			expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
		}));
});
